"use client";

import type { LucideIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm, type ResolverResult } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { applyActionErrors } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";
import { PasswordField } from "./password-field";
import { signInMessages } from "./sign-in-messages";

/**
 * "Your password again" before something that changes how one signs in (starting an
 * authenticator's set-up, new backup codes): the one form for both. A wrong password empties the
 * field and puts the cursor back in it; anything else is said above the form with its support code.
 */
export function PasswordAgainForm<Answer>({
  username,
  action,
  onDone,
  words,
  icon: Icon,
  prominent = false,
}: {
  username: string;
  action: (input: { password: string }) => Promise<ActionResult<Answer>>;
  onDone: (answer: Answer) => void;
  words: { hint?: string; submit: string; busy: string; failureTitle: string; failure: string };
  icon: LucideIcon;
  /** The page's main step (full width, large) rather than one task among others. */
  prominent?: boolean;
}) {
  const [formError, setFormError] = useState<{ message: string; supportCode?: string }>();
  const [failedAttempts, setFailedAttempts] = useState(0);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<{ password: string }>({
    resolver: (values): ResolverResult<{ password: string }> =>
      values.password ? { values, errors: {} } : { values: {}, errors: { password: { type: "rule", message: "Enter your password." } } },
    defaultValues: { password: "" },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    let result: ActionResult<Answer>;
    try {
      result = await action(values);
    } catch {
      setFormError({ message: signInMessages.unreachable });
      return;
    }
    if (!result.ok) {
      const message = applyActionErrors(result, { setError, setFocus }, ["password"]);
      const onTheField = result.code === "VALIDATION" && Object.keys(result.fieldErrors).length > 0;
      setFormError(onTheField ? undefined : { message: message ?? words.failure, supportCode: result.requestId });
      setValue("password", "");
      setFailedAttempts((count) => count + 1);
      return;
    }
    onDone(result.data);
  });
  // Back to the password once the form is enabled again (a disabled field cannot take focus).
  useEffect(() => {
    if (failedAttempts > 0 && !isSubmitting) setFocus("password");
  }, [failedAttempts, isSubmitting, setFocus]);

  return (
    <form onSubmit={onSubmit} noValidate className={prominent ? "flex flex-col gap-2" : "flex max-w-md flex-col gap-2"}>
      {formError ? (
        <Alert tone="danger" title={words.failureTitle} className={prominent ? "mb-4" : "mb-2"} attention={formError} supportCode={formError.supportCode}>
          {formError.message}
        </Alert>
      ) : null}
      {/* For the browser's password manager: whose password this is. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <fieldset disabled={isSubmitting} className="flex flex-col gap-2">
        <PasswordField registration={register("password")} label="Your password" hint={words.hint} autoComplete="current-password" autoFocus={prominent} error={errors.password?.message} />
        <Button type="submit" size={prominent ? "lg" : undefined} variant={prominent ? undefined : "secondary"} isBusy={isSubmitting} className={prominent ? "mt-2 w-full" : "self-start"}>
          {isSubmitting ? null : <Icon aria-hidden className={prominent ? "size-5" : "size-4"} />}
          {isSubmitting ? words.busy : words.submit}
        </Button>
      </fieldset>
    </form>
  );
}
