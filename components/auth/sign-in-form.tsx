"use client";

import { LogIn } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { resolverResultOf } from "@/components/ui/form-check-resolver";
import { PasswordField } from "./password-field";
import { checkSignIn, type SignInValues } from "./sign-in-check";
import { signInErrorMessage, signInMessages } from "./sign-in-messages";
import { TwoFactorCodeStep } from "./two-factor-code-step";

/**
 * Posts to better-auth's sign-in endpoint (the only one exposed: app/api/auth/[...all]).
 * A failure keeps the username, empties the password and puts the cursor back in it. An account
 * with an authenticator is answered `twoFactorRedirect`: the second step asks for its code.
 */
export function SignInForm({ next, isBreakGlassOnly = false }: { next: string; isBreakGlassOnly?: boolean }) {
  const [formError, setFormError] = useState<string | null>(null);
  const [failedAttempts, setFailedAttempts] = useState(0);
  const [codeStepFor, setCodeStepFor] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setValue,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({
    resolver: (values) => resolverResultOf<SignInValues, SignInValues>(checkSignIn(values)),
    defaultValues: { username: "", password: "" },
    // The password step stays registered while the code step shows: back to it, the username is kept.
    shouldUnregister: false,
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    let response: Response;
    try {
      response = await fetch("/api/auth/sign-in/username", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: values.username, password: values.password, rememberMe: true }),
        credentials: "same-origin",
      });
    } catch {
      setFormError(signInMessages.unreachable);
      return;
    }
    if (response.ok) {
      const answer = (await response.json().catch(() => ({}))) as { twoFactorRedirect?: boolean };
      if (answer.twoFactorRedirect) {
        setValue("password", "");
        setCodeStepFor(values.username);
        return;
      }
      // A full load, so that the shell renders for the new session from scratch.
      window.location.assign(next);
      return;
    }
    const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
    setFormError(signInErrorMessage({ status: response.status, code: body.code, message: body.message }, { isBreakGlassOnly }));
    setValue("password", "");
    setFailedAttempts((count) => count + 1);
  });

  // Back to the password once the form is enabled again (a disabled field cannot take focus).
  useEffect(() => {
    if (failedAttempts > 0 && !isSubmitting) setFocus("password");
  }, [failedAttempts, isSubmitting, setFocus]);

  if (codeStepFor) {
    return (
      <TwoFactorCodeStep
        username={codeStepFor}
        next={next}
        onRestart={(message) => {
          setCodeStepFor(null);
          setFormError(message);
          setFailedAttempts((count) => count + 1);
        }}
      />
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
      {formError ? (
        <Alert tone="danger" title="Not signed in" className="mb-4">
          {formError}
        </Alert>
      ) : null}
      <fieldset disabled={isSubmitting} className="flex flex-col gap-2">
        <Field controlId="username" label="Username" hint="Your staff username, e.g. teller.accra" error={errors.username?.message}>
          {(describedBy) => (
            <Input
              id="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              aria-invalid={errors.username ? true : undefined}
              aria-describedby={describedBy}
              className="h-12 text-lg"
              {...register("username")}
            />
          )}
        </Field>
        <PasswordField registration={register("password")} label="Password" autoComplete="current-password" error={errors.password?.message} />
        <Button type="submit" size="lg" isBusy={isSubmitting} className="mt-2 w-full">
          {isSubmitting ? null : <LogIn aria-hidden className="size-5" />}
          {isSubmitting ? "Signing in…" : "Sign in"}
        </Button>
      </fieldset>
    </form>
  );
}
