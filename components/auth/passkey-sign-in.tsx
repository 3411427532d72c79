"use client";

import { browserSupportsWebAuthn, startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { browserPasskeyErrorMessage, passkeyErrorMessage, passkeyMessages, passkeyPaths } from "@/lib/auth/passkey/dto";

export type PasskeyOutcome = { ok: true } | { ok: false; message: string };

/** A JSON call to the passkey endpoints (lib/auth/passkey), refusals turned into words. */
export async function callPasskeyEndpoint<T>(path: string, init: { method: "GET" | "POST"; body?: unknown }): Promise<{ ok: true; data: T } | { ok: false; message: string }> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method: init.method,
      headers: init.method === "POST" ? { "content-type": "application/json" } : undefined,
      body: init.method === "POST" ? JSON.stringify(init.body ?? {}) : undefined,
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, message: passkeyMessages.unreachable };
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown> & { code?: string; message?: string; error?: { code?: string; message?: string } };
  if (response.ok) return { ok: true, data: body as T };
  // Sign-in refusals come as better-auth's { code, message }; signed-in ones as the app's { error }.
  return { ok: false, message: passkeyErrorMessage({ status: response.status, code: body.code ?? body.error?.code, message: body.message ?? body.error?.message }) };
}

/**
 * Signs in with a passkey the device holds for this site (no username: discoverable credentials).
 * On success the server has set the session cookie, replacing any session this browser had.
 */
export async function signInWithPasskey(): Promise<PasskeyOutcome> {
  if (!browserSupportsWebAuthn()) return { ok: false, message: passkeyMessages.noWebAuthn };
  const options = await callPasskeyEndpoint<PublicKeyCredentialRequestOptionsJSON>(passkeyPaths.authenticationOptions, { method: "POST" });
  if (!options.ok) return options;
  let response: Awaited<ReturnType<typeof startAuthentication>>;
  try {
    response = await startAuthentication({ optionsJSON: options.data });
  } catch (error) {
    return { ok: false, message: browserPasskeyErrorMessage(error, "sign-in") };
  }
  const verified = await callPasskeyEndpoint(passkeyPaths.verifyAuthentication, { method: "POST", body: { response } });
  return verified.ok ? { ok: true } : verified;
}

/**
 * The passkey way in, under the password form of the sign-in page. Its button says "Use a
 * passkey", not "Sign in with a passkey": the password form's button is found by the name "Sign
 * in" (people's screen readers, and the suite's helpers), and two such buttons would be ambiguous.
 */
export function PasskeySignIn({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function onClick() {
    setError(null);
    setIsBusy(true);
    const outcome = await signInWithPasskey();
    if (outcome.ok) {
      // A full load, so that the shell renders for the new session from scratch.
      window.location.assign(next);
      return;
    }
    setIsBusy(false);
    setError(outcome.message);
  }

  return (
    <div className="mt-6 flex flex-col gap-3 border-t border-line pt-6">
      <p className="text-sm text-ink-muted">Or, without a password, with the PIN or fingerprint of this computer or your phone:</p>
      {error ? (
        <Alert tone="danger" title="Not signed in">
          {error}
        </Alert>
      ) : null}
      <Button type="button" variant="secondary" size="lg" className="w-full" isBusy={isBusy} disabled={isBusy} onClick={onClick}>
        {isBusy ? null : <KeyRound aria-hidden className="size-5" />}
        {isBusy ? "Waiting for your passkey…" : "Use a passkey"}
      </Button>
    </div>
  );
}
