"use client";

import { Ban, KeyRound, RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { ResetPasswordAction, SetStaffDisabledAction } from "./staff-action-types";
import { TemporaryPassword } from "./temporary-password";

type Pending = "disable" | "enable" | "reset" | null;

/** Disable / enable and password reset, each confirmed in a dialog first. */
export function AccountControls({
  userId,
  username,
  name,
  isDisabled,
  resetPasswordAction,
  setDisabledAction,
}: {
  userId: string;
  username: string;
  name: string;
  isDisabled: boolean;
  resetPasswordAction: ResetPasswordAction;
  setDisabledAction: SetStaffDisabledAction;
}) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<Pending>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<{ message?: string; supportCode?: string }>();
  const [newPassword, setNewPassword] = useState<string>();

  const run = async () => {
    setIsBusy(true);
    setError(undefined);
    if (confirming === "reset") {
      const result = await resetPasswordAction({ userId });
      setIsBusy(false);
      setConfirming(null);
      if (result.ok) setNewPassword(result.data.temporaryPassword);
      else setError({ message: result.formError, supportCode: result.requestId });
    } else {
      const result = await setDisabledAction({ userId, isDisabled: confirming === "disable" });
      setIsBusy(false);
      setConfirming(null);
      if (!result.ok) setError({ message: result.formError, supportCode: result.requestId });
    }
    router.refresh();
  };

  const dialogs = {
    disable: {
      title: `Disable ${name}'s account?`,
      text: "They are signed out everywhere at once and cannot sign in until the account is enabled again. Their history stays.",
      confirm: "Disable account",
    },
    enable: { title: `Enable ${name}'s account?`, text: "They can sign in again with their current password.", confirm: "Enable account" },
    reset: {
      title: `Reset ${name}'s password?`,
      text: "A new temporary password is generated and shown to you once. Their current password stops working, they are signed out, and at their next sign-in they must choose a new password.",
      confirm: "Reset password",
    },
  } as const;
  const dialog = confirming ? dialogs[confirming] : null;

  return (
    <div className="flex flex-col gap-4">
      {error ? (
        <Alert tone="danger" title="Not done" attention={error} supportCode={error.supportCode}>
          {error.message}
        </Alert>
      ) : null}
      {newPassword ? <TemporaryPassword username={username} password={newPassword} /> : null}
      <div className="flex flex-wrap gap-3">
        {isDisabled ? (
          <Button variant="secondary" onClick={() => setConfirming("enable")}>
            <RotateCcw aria-hidden className="size-5" />
            Enable account
          </Button>
        ) : (
          <Button variant="danger" onClick={() => setConfirming("disable")}>
            <Ban aria-hidden className="size-5" />
            Disable account
          </Button>
        )}
        <Button variant="secondary" onClick={() => setConfirming("reset")}>
          <KeyRound aria-hidden className="size-5" />
          Reset password
        </Button>
      </div>
      <Dialog
        open={dialog !== null}
        onOpenChange={(open) => {
          if (!open && !isBusy) setConfirming(null);
        }}
        title={dialog?.title ?? ""}
        description={dialog?.text}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)} disabled={isBusy}>
              Cancel
            </Button>
            <Button variant={confirming === "disable" ? "danger" : "primary"} onClick={run} isBusy={isBusy} disabled={isBusy}>
              {dialog?.confirm}
            </Button>
          </>
        }
      />
    </div>
  );
}
