"use client";

import { ActiveTokenWarning } from "./active-token-warning";
import { IssueAlert } from "./issue-alert";
import type { useTokenIssuing } from "./use-token-issuing";

type TokenIssuing = Pick<ReturnType<typeof useTokenIssuing<unknown>>, "alert" | "activeTokens" | "isBusy" | "startNewAttempt">;

/**
 * What both token forms say above their fields after a submit: why no token was issued, a
 * server-side form error, or the customer's tokens still open (with "issue anyway"). Announced
 * politely, and takes no room while empty.
 */
export function IssueFeedback({ issuing, serverError, onIssueAnyway }: { issuing: TokenIssuing; serverError?: string; onIssueAnyway: () => void }) {
  return (
    <div aria-live="polite" className="flex flex-col gap-3 empty:hidden">
      {issuing.alert ? <IssueAlert alert={issuing.alert} onStartNewAttempt={issuing.startNewAttempt} /> : null}
      {serverError ? <p className="text-sm font-medium text-danger-700">{serverError}</p> : null}
      {issuing.activeTokens ? <ActiveTokenWarning activeTokens={issuing.activeTokens} isBusy={issuing.isBusy} onIssueAnyway={onIssueAnyway} /> : null}
    </div>
  );
}
