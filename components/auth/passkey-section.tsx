"use client";

import { browserSupportsWebAuthn, startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { KeyRound, Plus, Trash2 } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { browserPasskeyErrorMessage, PASSKEY_NAME_MAX, passkeyMessages, passkeyPaths, type PasskeySummary } from "@/lib/auth/passkey/dto";
import { formatDateTime } from "@/lib/bank-time";
import { callPasskeyEndpoint, signInWithPasskey } from "./passkey-sign-in";

type Notice = { tone: "success" | "danger"; title: string; text: string };

/**
 * A staff member's own passkeys: the list (name, added, last used), adding one, removing one.
 * On the account page (`mode="account"`) and on the second-factor enrolment page
 * (`mode="enrolment"`): there, a new passkey must be used once, and that sign-in — a passkey
 * session replacing the password one — is what completes the enrolment.
 */
export function PasskeySection({ mode = "account", next = "/" }: { mode?: "account" | "enrolment"; next?: string }) {
  const [passkeys, setPasskeys] = useState<PasskeySummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | undefined>();
  const [busy, setBusy] = useState<"adding" | "using" | string | null>(null);
  const [confirmingRemoval, setConfirmingRemoval] = useState<string | null>(null);
  const [isAwaitingFirstUse, setIsAwaitingFirstUse] = useState(false);

  const showList = useCallback((answer: Awaited<ReturnType<typeof fetchPasskeys>>) => {
    if (answer.ok) {
      setPasskeys(answer.data.passkeys);
      setLoadError(null);
    } else {
      setLoadError(answer.message);
    }
  }, []);
  const load = async () => showList(await fetchPasskeys());

  useEffect(() => {
    // Loaded once the page is up: the list is the owner's own and changes only here.
    let isCurrent = true;
    void fetchPasskeys().then((answer) => {
      if (isCurrent) showList(answer);
    });
    return () => {
      isCurrent = false;
    };
  }, [showList]);

  async function add(event: React.FormEvent) {
    event.preventDefault();
    setNotice(null);
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > PASSKEY_NAME_MAX) {
      setNameError(`Give it a name of 1 to ${PASSKEY_NAME_MAX} characters, e.g. "Counter 3 PC" or "My phone".`);
      return;
    }
    setNameError(undefined);
    if (!browserSupportsWebAuthn()) {
      setNotice({ tone: "danger", title: "No passkey added", text: passkeyMessages.noWebAuthn });
      return;
    }
    setBusy("adding");
    const outcome = await register(trimmed);
    setBusy(null);
    if (!outcome.ok) {
      setNotice({ tone: "danger", title: "No passkey added", text: outcome.message });
      return;
    }
    setName("");
    await load();
    if (mode === "enrolment") {
      setIsAwaitingFirstUse(true);
      setNotice({ tone: "success", title: "Passkey added", text: "Now use it once to finish: it checks the passkey works, and signs you in with it." });
    } else {
      setNotice({ tone: "success", title: "Passkey added", text: `"${trimmed}" can now sign you in, with its PIN or fingerprint.` });
    }
  }

  async function useOnce() {
    setNotice(null);
    setBusy("using");
    const outcome = await signInWithPasskey();
    if (outcome.ok) {
      window.location.assign(next);
      return;
    }
    setBusy(null);
    setNotice({ tone: "danger", title: "Not finished yet", text: outcome.message });
  }

  async function remove(passkey: PasskeySummary) {
    setNotice(null);
    setBusy(passkey.id);
    const answer = await callPasskeyEndpoint(passkeyPaths.remove, { method: "POST", body: { id: passkey.id } });
    setBusy(null);
    setConfirmingRemoval(null);
    setNotice(
      answer.ok
        ? { tone: "success", title: "Passkey removed", text: `"${passkey.name}" can no longer sign you in.` }
        : { tone: "danger", title: "Not removed", text: answer.message },
    );
    await load();
  }

  return (
    <section aria-labelledby="passkeys-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="passkeys-heading" className="flex items-center gap-2 text-xl font-bold text-ink">
          <KeyRound aria-hidden className="size-5" />
          Passkeys
        </h2>
        <p className="mt-1 text-ink-muted">
          A passkey signs you in without a password: this computer or your phone checks it is you with a PIN or a fingerprint.
        </p>
      </div>
      {notice ? (
        <Alert tone={notice.tone} title={notice.title}>
          {notice.text}
        </Alert>
      ) : null}
      {isAwaitingFirstUse ? (
        <Button type="button" size="lg" className="self-start" isBusy={busy === "using"} disabled={busy !== null} onClick={useOnce}>
          {busy === "using" ? null : <KeyRound aria-hidden className="size-5" />}
          {busy === "using" ? "Waiting for your passkey…" : "Use my new passkey"}
        </Button>
      ) : null}
      {loadError ? (
        <Alert tone="danger" title="Your passkeys could not be shown">
          {loadError}
        </Alert>
      ) : passkeys === null ? (
        <p className="text-ink-muted">Loading your passkeys…</p>
      ) : passkeys.length === 0 ? (
        <p className="text-ink-muted">You have no passkeys yet.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line rounded-card border border-line" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="min-w-0">
                <p className="font-semibold break-words text-ink">{passkey.name}</p>
                <p className="text-sm text-ink-muted">
                  Added {formatDateTime(passkey.createdAt)} · {passkey.lastUsedAt ? `last used ${formatDateTime(passkey.lastUsedAt)}` : "not used yet"}
                </p>
              </div>
              {confirmingRemoval === passkey.id ? (
                <div className="flex gap-2">
                  <Button type="button" variant="danger" size="sm" isBusy={busy === passkey.id} disabled={busy !== null} onClick={() => remove(passkey)}>
                    Remove {passkey.name.length > 20 ? "it" : `"${passkey.name}"`}
                  </Button>
                  <Button type="button" variant="secondary" size="sm" disabled={busy !== null} onClick={() => setConfirmingRemoval(null)}>
                    Keep
                  </Button>
                </div>
              ) : (
                <Button type="button" variant="secondary" size="sm" disabled={busy !== null} onClick={() => setConfirmingRemoval(passkey.id)}>
                  <Trash2 aria-hidden className="size-4" />
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} noValidate className="flex flex-col gap-2">
        <fieldset disabled={busy !== null} className="flex flex-col gap-2">
          <Field controlId="passkey-name" label="Name for a new passkey" hint='So you can tell it apart later, e.g. "Counter 3 PC" or "My phone"' error={nameError}>
            {(describedBy) => (
              <Input
                id="passkey-name"
                value={name}
                maxLength={PASSKEY_NAME_MAX}
                autoComplete="off"
                aria-invalid={nameError ? true : undefined}
                aria-describedby={describedBy}
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </Field>
          <Button type="submit" variant={mode === "enrolment" ? "primary" : "secondary"} className="self-start" isBusy={busy === "adding"}>
            {busy === "adding" ? null : <Plus aria-hidden className="size-5" />}
            {busy === "adding" ? "Waiting for your passkey…" : "Add a passkey"}
          </Button>
        </fieldset>
      </form>
    </section>
  );
}

function fetchPasskeys() {
  return callPasskeyEndpoint<{ passkeys: PasskeySummary[] }>(passkeyPaths.list, { method: "GET" });
}

async function register(name: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const options = await callPasskeyEndpoint<PublicKeyCredentialCreationOptionsJSON>(passkeyPaths.registrationOptions, { method: "POST" });
  if (!options.ok) return options;
  let response: Awaited<ReturnType<typeof startRegistration>>;
  try {
    response = await startRegistration({ optionsJSON: options.data });
  } catch (error) {
    return { ok: false, message: browserPasskeyErrorMessage(error, "registration") };
  }
  const verified = await callPasskeyEndpoint(passkeyPaths.verifyRegistration, { method: "POST", body: { name, response } });
  return verified.ok ? { ok: true } : verified;
}
