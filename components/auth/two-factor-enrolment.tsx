"use client";

import { ArrowRight, KeyRound, ShieldCheck } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useForm, type ResolverResult } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { applyActionErrors } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";
import { PasswordAgainForm } from "./password-again-form";
import { signInMessages } from "./sign-in-messages";
import { TwoFactorBackupCodes } from "./two-factor-backup-codes";
import { checkCode } from "./two-factor-messages";

type Started = { qrCodeDataUrl: string; secret: string; backupCodes: string[] };
export type StartEnrolmentAction = (input: { password: string }) => Promise<ActionResult<Started>>;
export type ConfirmEnrolmentAction = (input: { code: string }) => Promise<ActionResult<{ home: string }>>;

/**
 * The backup codes of the set-up under way, outside React state: confirming the app answers a new
 * session cookie, and Next renders the page afresh for it, which can mount this component anew.
 * The codes must still be on screen then, once, until "continue".
 */
const setUp: { codes: string[] | null } = { codes: null };
function keepCodesOfSetUp(codes: string[] | null): void {
  setUp.codes = codes;
}

/**
 * Setting up an authenticator app, in three steps on one page: the password again; the QR code
 * (and the secret in groups, for typing) with a code from the app to confirm it; then the backup
 * codes, shown once. Confirming already signed the session in with the app: "Continue" only
 * leaves the page.
 */
export function TwoFactorEnrolment({
  isSetUp,
  sessionLacksIt,
  username,
  bankName,
  startAction,
  confirmAction,
}: {
  /** The account has a confirmed authenticator (also right after this component confirmed it). */
  isSetUp: boolean;
  /**
   * The account has an app, but this session was signed in with the password alone (it was
   * replaced after a password change): the code proves it at the next sign-in. A render of the
   * page that raced the confirmation's new cookie can say so too, which is why the backup codes of
   * a set-up under way are shown before this is.
   */
  sessionLacksIt: boolean;
  username: string;
  bankName: string;
  startAction: StartEnrolmentAction;
  confirmAction: ConfirmEnrolmentAction;
}) {
  const [started, setStarted] = useState<Started | null>(null);
  const [home, setHome] = useState<string | null>(null);
  const [codesAfterConfirming] = useState(() => (isSetUp ? setUp.codes : null));

  const codesToShow = started && home ? started.backupCodes : isSetUp ? (codesAfterConfirming ?? (started ? started.backupCodes : null)) : null;
  if (codesToShow) {
    return (
      <div className="flex flex-col gap-6">
        <Alert tone="success" title="Authenticator app set up">
          From now on you sign in with your password and a code from the app.
        </Alert>
        <TwoFactorBackupCodes codes={codesToShow} username={username} bankName={bankName} />
        <Button
          type="button"
          size="lg"
          className="no-print w-full"
          onClick={() => {
            keepCodesOfSetUp(null);
            window.location.assign(home ?? "/");
          }}
        >
          I have saved my backup codes — continue
          <ArrowRight aria-hidden className="size-5" />
        </Button>
      </div>
    );
  }
  if (sessionLacksIt) {
    return (
      <Alert tone="info" title="Your account has an authenticator app">
        Sign out, then sign in again with your password and a code from the app.
      </Alert>
    );
  }
  if (isSetUp) {
    return (
      <div className="flex flex-col gap-4">
        <Alert tone="success" title="Authenticator app set up">
          New backup codes, or a passkey: see your sign-in security.
        </Alert>
        <Button asChild variant="secondary" className="self-start">
          <Link href="/account/security">Sign-in security</Link>
        </Button>
      </div>
    );
  }
  if (started) return <ConfirmStep started={started} confirmAction={confirmAction} onConfirmed={setHome} />;
  return (
    <PasswordAgainForm
      username={username}
      action={startAction}
      onDone={(answer) => {
        keepCodesOfSetUp(answer.backupCodes);
        setStarted(answer);
      }}
      words={{ hint: "To make sure it is you at this computer.", submit: "Start the set-up", busy: "Starting…", failureTitle: "Not started", failure: "The set-up did not start." }}
      icon={KeyRound}
      prominent
    />
  );
}

function ConfirmStep({ started, confirmAction, onConfirmed }: { started: Started; confirmAction: ConfirmEnrolmentAction; onConfirmed: (home: string) => void }) {
  const [formError, setFormError] = useState<{ message: string; supportCode?: string }>();
  const [failedAttempts, setFailedAttempts] = useState(0);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<{ code: string }>({
    resolver: (values): ResolverResult<{ code: string }> => {
      const checked = checkCode(values.code, "totp");
      return checked.ok ? { values: { code: checked.value }, errors: {} } : { values: {}, errors: { code: { type: "rule", message: checked.message } } };
    },
    defaultValues: { code: "" },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    let result: Awaited<ReturnType<ConfirmEnrolmentAction>>;
    try {
      result = await confirmAction(values);
    } catch {
      setFormError({ message: signInMessages.unreachable });
      return;
    }
    if (!result.ok) {
      const message = applyActionErrors(result, { setError, setFocus }, ["code"]);
      if (!(result.code === "VALIDATION" && Object.keys(result.fieldErrors).length > 0)) {
        setFormError({ message: message ?? "The app was not confirmed.", supportCode: result.requestId });
      }
      setValue("code", "");
      setFailedAttempts((count) => count + 1);
      return;
    }
    onConfirmed(result.data.home);
  });
  useEffect(() => {
    if (failedAttempts > 0 && !isSubmitting) setFocus("code");
  }, [failedAttempts, isSubmitting, setFocus]);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <ol className="flex list-decimal flex-col gap-1 pl-5 text-ink-muted">
        <li>Open the authenticator app on your phone (for example Microsoft or Google Authenticator).</li>
        <li>Add an account by scanning this QR code, or type the key below.</li>
        <li>Type the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        {/* A data URL made on the server: nothing of the secret leaves for another site. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={started.qrCodeDataUrl} alt="QR code for your authenticator app" width={180} height={180} className="rounded-control border border-line" />
        <div className="flex flex-col gap-1">
          <p className="text-sm font-semibold text-ink">Key, to type instead</p>
          <p data-testid="authenticator-secret" className="font-mono text-base break-all text-ink">
            {started.secret}
          </p>
          <p className="text-sm text-ink-muted">Time-based, 6 digits.</p>
        </div>
      </div>
      {formError ? (
        <Alert tone="danger" title="Not confirmed" attention={formError} supportCode={formError.supportCode}>
          {formError.message}
        </Alert>
      ) : null}
      <fieldset disabled={isSubmitting} className="flex flex-col gap-2">
        <Field controlId="code" label="Code from the app" hint="6 digits" error={errors.code?.message}>
          {(describedBy) => (
            <Input
              id="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={7}
              autoFocus
              aria-invalid={errors.code ? true : undefined}
              aria-describedby={describedBy}
              className="h-12 font-mono text-lg tracking-widest"
              {...register("code")}
            />
          )}
        </Field>
        <Button type="submit" size="lg" isBusy={isSubmitting} className="mt-2 w-full">
          {isSubmitting ? null : <ShieldCheck aria-hidden className="size-5" />}
          {isSubmitting ? "Checking…" : "Confirm the app"}
        </Button>
      </fieldset>
    </form>
  );
}
