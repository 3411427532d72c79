"use client";

import { ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm, type ResolverResult } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { signInMessages, signInErrorMessage } from "./sign-in-messages";
import { checkCode, codeStepOutcome } from "./two-factor-messages";

type CodeValues = { code: string };
type Kind = "totp" | "backup_code";

const endpointOf: Record<Kind, string> = {
  totp: "/api/auth/two-factor/verify-totp",
  backup_code: "/api/auth/two-factor/verify-backup-code",
};

/**
 * The second step of a password sign-in: the code of the staff member's authenticator app, or
 * one of their backup codes. better-auth keeps the pending sign-in behind a short-lived cookie;
 * a refused code keeps the step (the cursor back in the field), an expired one goes back to the
 * password with the username kept (`onRestart`). Devices are never remembered: PCs are shared.
 */
export function TwoFactorCodeStep({ username, next, onRestart }: { username: string; next: string; onRestart: (message: string | null) => void }) {
  const [kind, setKind] = useState<Kind>("totp");
  const [formError, setFormError] = useState<string | null>(null);
  const [failedAttempts, setFailedAttempts] = useState(0);
  const {
    register,
    handleSubmit,
    setValue,
    setFocus,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<CodeValues>({
    resolver: (values): ResolverResult<CodeValues, CodeValues> => {
      const checked = checkCode(values.code, kind);
      return checked.ok ? { values: { code: checked.value }, errors: {} } : { values: {}, errors: { code: { type: "rule", message: checked.message } } };
    },
    defaultValues: { code: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    let response: Response;
    try {
      response = await fetch(endpointOf[kind], {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code: values.code }),
        credentials: "same-origin",
      });
    } catch {
      setFormError(signInMessages.unreachable);
      return;
    }
    if (response.ok) {
      window.location.assign(next);
      return;
    }
    const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
    const answer = { status: response.status, code: body.code, message: body.message };
    const outcome = codeStepOutcome(answer, kind);
    if (outcome?.restart || body.code === "ACCOUNT_LOCKED") {
      onRestart(outcome?.message ?? signInErrorMessage(answer));
      return;
    }
    setFormError(outcome?.message ?? signInErrorMessage(answer));
    setValue("code", "");
    setFailedAttempts((count) => count + 1);
  });

  // Back to the code once the form is enabled again (a disabled field cannot take focus).
  useEffect(() => {
    if (failedAttempts > 0 && !isSubmitting) setFocus("code");
  }, [failedAttempts, isSubmitting, setFocus]);

  function switchKind() {
    setKind((current) => (current === "totp" ? "backup_code" : "totp"));
    setFormError(null);
    clearErrors();
    setValue("code", "");
    // After the field re-renders with its new label.
    requestAnimationFrame(() => setFocus("code"));
  }

  const isTotp = kind === "totp";
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2" aria-label="Second step of signing in">
      <p className="mb-2 text-ink-muted">
        Password accepted for <span className="font-semibold text-ink">{username}</span>.{" "}
        {isTotp ? "Now type the code your authenticator app shows." : "Type one of the backup codes you saved. Each works once."}
      </p>
      {formError ? (
        <Alert tone="danger" title="Not signed in" className="mb-4">
          {formError}
        </Alert>
      ) : null}
      <fieldset disabled={isSubmitting} className="flex flex-col gap-2">
        <Field
          controlId="code"
          label={isTotp ? "Authenticator code" : "Backup code"}
          hint={isTotp ? "6 digits, from the app on your phone" : "As printed, e.g. abcde-12345"}
          error={errors.code?.message}
        >
          {(describedBy) => (
            <Input
              key={kind}
              id="code"
              autoComplete="one-time-code"
              inputMode={isTotp ? "numeric" : "text"}
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              maxLength={isTotp ? 7 : 64}
              aria-invalid={errors.code ? true : undefined}
              aria-describedby={describedBy}
              className="h-12 font-mono text-lg tracking-widest"
              {...register("code")}
            />
          )}
        </Field>
        <Button type="submit" size="lg" isBusy={isSubmitting} className="mt-2 w-full">
          {isSubmitting ? null : <ShieldCheck aria-hidden className="size-5" />}
          {isSubmitting ? "Checking…" : "Verify and sign in"}
        </Button>
        <div className="mt-2 flex flex-wrap justify-between gap-2">
          <Button type="button" variant="ghost" size="sm" onClick={switchKind}>
            {isTotp ? "Use a backup code instead" : "Use the authenticator app instead"}
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => onRestart(null)}>
            Start again
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
