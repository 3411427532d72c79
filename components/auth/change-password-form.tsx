"use client";

import { KeyRound } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { applyActionErrors } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";
import { resolverResultOf } from "@/components/ui/form-check-resolver";
import { checkChangePassword, PASSWORD_MIN, type ChangePasswordInput } from "@/lib/auth/password-rules";
import { PasswordField } from "./password-field";

const fieldNames = ["currentPassword", "newPassword", "confirmPassword"] as const;

/** app/change-password/actions.ts's changeTemporaryPasswordAction, passed down by the page. */
export type ChangePasswordAction = (input: ChangePasswordInput) => Promise<ActionResult<{ home: string }>>;

/**
 * The temporary password, the new one and the new one again. Every message shows at once next to
 * its field, and nothing typed is cleared on a refusal; on success a full page load takes the
 * staff member to their home with the fresh session.
 */
export function ChangePasswordForm({ username, changePasswordAction }: { username: string; changePasswordAction: ChangePasswordAction }) {
  const [formError, setFormError] = useState<{ message: string; supportCode?: string }>();
  // Between the answer and the next page loading: the form stays closed.
  const [isLeaving, setIsLeaving] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordInput>({
    resolver: (values) => resolverResultOf<ChangePasswordInput, ChangePasswordInput>(checkChangePassword(values)),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    let result: Awaited<ReturnType<ChangePasswordAction>>;
    try {
      result = await changePasswordAction(values);
    } catch {
      setFormError({ message: "Veridesk could not be reached. Check the network connection and try again." });
      return;
    }
    if (!result.ok) {
      const message = applyActionErrors(result, { setError, setFocus }, fieldNames);
      // A refusal on the fields alone needs no second message above them.
      setFormError(result.code === "VALIDATION" && Object.keys(result.fieldErrors).length > 0 ? undefined : { message: message ?? "The password was not changed.", supportCode: result.requestId });
      return;
    }
    setIsLeaving(true);
    window.location.assign(result.data.home);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
      {formError ? (
        <Alert tone="danger" title="Password not changed" className="mb-4" attention={formError} supportCode={formError.supportCode}>
          {formError.message}
        </Alert>
      ) : null}
      {/* For password managers: which account the new password belongs to. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <fieldset disabled={isSubmitting || isLeaving} className="flex flex-col gap-2">
        <PasswordField
          registration={register("currentPassword")}
          label="Temporary password"
          autoComplete="current-password"
          autoFocus
          error={errors.currentPassword?.message}
        />
        <PasswordField
          registration={register("newPassword")}
          label="New password"
          hint={`At least ${PASSWORD_MIN} characters, not the temporary one.`}
          autoComplete="new-password"
          error={errors.newPassword?.message}
        />
        <PasswordField
          registration={register("confirmPassword")}
          label="New password again"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
        />
        <Button type="submit" size="lg" isBusy={isSubmitting || isLeaving} className="mt-2 w-full">
          {isSubmitting || isLeaving ? null : <KeyRound aria-hidden className="size-5" />}
          {isSubmitting ? "Saving…" : isLeaving ? "Password saved" : "Save new password"}
        </Button>
      </fieldset>
    </form>
  );
}
