"use client";

import { Download, Printer } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * Backup codes, shown once: each signs in once when the authenticator app is not at hand. They are
 * never shown again (only a count), so the staff member downloads or prints them now.
 */
export function TwoFactorBackupCodes({ codes, username, bankName }: { codes: readonly string[]; username: string; bankName: string }) {
  function download() {
    const text = [`${bankName} — Veridesk backup codes for ${username}`, "Each code works once.", "", ...codes, ""].join("\n");
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `veridesk-backup-codes-${username}.txt`;
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section aria-labelledby="backup-codes-title" className="flex flex-col gap-3">
      <h2 id="backup-codes-title" className="text-lg font-semibold text-ink">
        Your backup codes
      </h2>
      <p className="text-sm text-ink-muted">
        If your phone is not at hand, each of these signs you in once. Keep them somewhere safe, away from this computer: they are shown
        only now.
      </p>
      <ol data-testid="backup-codes" className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-control border border-line bg-surface-sunken p-4 font-mono text-base text-ink">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="no-print flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={download}>
          <Download aria-hidden className="size-4" />
          Download as a file
        </Button>
        <Button type="button" variant="secondary" onClick={() => window.print()}>
          <Printer aria-hidden className="size-4" />
          Print
        </Button>
      </div>
    </section>
  );
}
