import "server-only";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { AppError } from "@/lib/errors";
import { decryptField, encryptField, type PiiKeys } from "@/lib/pii";

/**
 * Standard Webhooks signing: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with a `whsec_`
 * secret of 32 random bytes. During a rotation's overlap the header carries one signature per
 * secret, space-separated, so a receiver holding either secret verifies.
 */

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function signatureHeader(secrets: readonly string[], webhookId: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(webhookId, at, body)).join(" ");
}

/** The secret is encrypted with the personal-data key, bound to its endpoint and column. */
export function encryptSecret(endpointId: string, column: "secret" | "previous_secret", secret: string, keys?: PiiKeys): string {
  return encryptField(secret, `webhook_endpoints.${column}:${endpointId}`, keys);
}

export function decryptSecret(endpointId: string, column: "secret" | "previous_secret", stored: string, keys?: PiiKeys): string {
  return decryptField(stored, `webhook_endpoints.${column}:${endpointId}`, keys);
}

/**
 * The endpoint's current secret. An endpoint not yet approved has none (it is made at the
 * approval, ADR 0052): nothing is signed for it, rather than signed with something else.
 */
export function currentSecretOf(endpoint: { id: string; secretEncrypted: string | null }, keys?: PiiKeys): string {
  if (endpoint.secretEncrypted === null) throw new AppError("CONFLICT", `webhook endpoint ${endpoint.id} has no signing secret yet (not approved)`);
  return decryptSecret(endpoint.id, "secret", endpoint.secretEncrypted, keys);
}

/** The secrets to sign with now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(
  endpoint: { id: string; secretEncrypted: string | null; previousSecretEncrypted: string | null; previousSecretUntil: Date | null },
  now: Date,
  keys?: PiiKeys,
): string[] {
  const secrets = [currentSecretOf(endpoint, keys)];
  if (endpoint.previousSecretEncrypted && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now) {
    secrets.push(decryptSecret(endpoint.id, "previous_secret", endpoint.previousSecretEncrypted, keys));
  }
  return secrets;
}

export function webhookIdOf(deliveryId: string): string {
  return `msg_${deliveryId.replaceAll("-", "")}`;
}
