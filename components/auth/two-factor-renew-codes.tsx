"use client";

import { RefreshCw } from "lucide-react";
import { useState } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { PasswordAgainForm } from "./password-again-form";
import { TwoFactorBackupCodes } from "./two-factor-backup-codes";

export type RenewBackupCodesAction = (input: { password: string }) => Promise<ActionResult<{ backupCodes: string[] }>>;

/** New backup codes for one's own account, after the password again; the old ones stop working. */
export function TwoFactorRenewCodes({ username, bankName, renewAction }: { username: string; bankName: string; renewAction: RenewBackupCodesAction }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) return <TwoFactorBackupCodes codes={codes} username={username} bankName={bankName} />;
  return (
    <PasswordAgainForm
      username={username}
      action={renewAction}
      onDone={(answer) => setCodes(answer.backupCodes)}
      words={{ submit: "Make new backup codes", busy: "Making new codes…", failureTitle: "No new codes", failure: "No new codes were made." }}
      icon={RefreshCw}
    />
  );
}
