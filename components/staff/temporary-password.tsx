"use client";

import { KeyRound } from "lucide-react";
import { CopyButton } from "@/components/ui/copy-button";

/**
 * A password shown exactly once: it is not stored anywhere it could be shown again, so the
 * administrator copies it now and hands it over in person. It opens only the page where the staff
 * member chooses their own (ADR 0012).
 */
export function TemporaryPassword({ username, password }: { username: string; password: string }) {
  return (
    <div className="flex flex-col gap-3 rounded-card border-2 border-warning-600 bg-warning-50 p-5" role="status">
      <p className="flex items-start gap-2 font-semibold text-warning-700">
        <KeyRound aria-hidden className="mt-0.5 size-5 shrink-0" />
        <span>
          Temporary password for <span className="font-mono">{username}</span> — shown only once
        </span>
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <code className="rounded-control border border-line-strong bg-surface px-4 py-2 font-mono text-2xl tracking-wider text-ink" data-testid="temporary-password">
          {password}
        </code>
        <CopyButton value={password} size="sm" />
      </div>
      <p className="text-sm text-ink">
        Give it to the staff member in person. When they sign in with it, they must choose a password of their own before
        anything else. It will not be shown again; if it is lost, reset the password once more.
      </p>
    </div>
  );
}
