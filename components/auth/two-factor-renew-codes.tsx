"use client";

import { RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm, type ResolverResult } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { applyActionErrors } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";
import { PasswordField } from "./password-field";
import { TwoFactorBackupCodes } from "./two-factor-backup-codes";

export type RenewBackupCodesAction = (input: { password: string }) => Promise<ActionResult<{ backupCodes: string[] }>>;

/** New backup codes for one's own account, after the password again; the old ones stop working. */
export function TwoFactorRenewCodes({ username, bankName, renewAction }: { username: string; bankName: string; renewAction: RenewBackupCodesAction }) {
  const [codes, setCodes] = useState<string[] | null>(null);
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
    let result: Awaited<ReturnType<RenewBackupCodesAction>>;
    try {
      result = await renewAction(values);
    } catch {
      setFormError({ message: "Veridesk could not be reached. Check the network connection and try again." });
      return;
    }
    if (!result.ok) {
      const message = applyActionErrors(result, { setError, setFocus }, ["password"]);
      setFormError(result.code === "VALIDATION" && Object.keys(result.fieldErrors).length > 0 ? undefined : { message: message ?? "No new codes were made.", supportCode: result.requestId });
      setValue("password", "");
      setFailedAttempts((count) => count + 1);
      return;
    }
    setCodes(result.data.backupCodes);
  });
  useEffect(() => {
    if (failedAttempts > 0 && !isSubmitting) setFocus("password");
  }, [failedAttempts, isSubmitting, setFocus]);

  if (codes) return <TwoFactorBackupCodes codes={codes} username={username} bankName={bankName} />;
  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-md flex-col gap-2">
      {formError ? (
        <Alert tone="danger" title="No new codes" className="mb-2" attention={formError} supportCode={formError.supportCode}>
          {formError.message}
        </Alert>
      ) : null}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <fieldset disabled={isSubmitting} className="flex flex-col gap-2">
        <PasswordField registration={register("password")} label="Your password" autoComplete="current-password" error={errors.password?.message} />
        <Button type="submit" variant="secondary" isBusy={isSubmitting} className="self-start">
          {isSubmitting ? null : <RefreshCw aria-hidden className="size-4" />}
          {isSubmitting ? "Making new codes…" : "Make new backup codes"}
        </Button>
      </fieldset>
    </form>
  );
}
