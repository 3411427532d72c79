import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";
import { getPiiKeys, type PiiKeys } from "./keys";

/**
 * AES-256-GCM for single database columns. A stored value reads
 * `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url parts): the version and key id let a later key
 * rotation tell old values from new ones. The caller names a context (table, column, row id) that
 * is bound in as additional authenticated data, so a ciphertext copied into another row or column
 * fails to decrypt instead of showing the wrong customer's number.
 */

const version = "v1";
const ivLength = 12;

export function encryptField(plaintext: string, context: string, keys: PiiKeys = getPiiKeys()): string {
  const iv = randomBytes(ivLength);
  const cipher = createCipheriv("aes-256-gcm", keys.encryptionKey, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [version, keys.encryptionKeyId, iv.toString("base64url"), ciphertext.toString("base64url"), tag.toString("base64url")].join(".");
}

export function decryptField(stored: string, context: string, keys: PiiKeys = getPiiKeys()): string {
  const parts = stored.split(".");
  if (parts.length !== 5 || parts[0] !== version) {
    throw new AppError("INTERNAL", `an encrypted field of ${context.split(":")[0]} is not in the ${version} format`);
  }
  const [, keyId, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  if (keyId !== keys.encryptionKeyId) {
    throw new AppError(
      "CONFIGURATION",
      `a field was encrypted with key ${keyId} but the configured PII_ENCRYPTION_KEY is ${keys.encryptionKeyId}`,
    );
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", keys.encryptionKey, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch (error) {
    throw new AppError("INTERNAL", "an encrypted field failed authentication (tampered, or moved from another row)", {
      cause: error,
    });
  }
}
