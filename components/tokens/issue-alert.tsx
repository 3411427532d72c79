import Link from "next/link";
import type { ErrorCode } from "@/lib/errors";
import { outcomeUnknownCodes } from "@/lib/tokens/display";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

export type IssueAlertState = {
  code: ErrorCode;
  message: string;
  requestId?: string;
  /** The attempt left behind when the outcome is unknown: its page takes the token from the SMS. */
  attemptId?: string;
  /** Some field got its own message and the focus: the alert then does not take it. */
  hasFieldErrors?: boolean;
};

const titles: Partial<Record<ErrorCode, string>> = {
  VALIDATION: "Check the highlighted fields",
  UPSTREAM_TIMEOUT: "No answer from the service — the token may exist",
  UPSTREAM_MALFORMED: "Unreadable answer — the token may exist",
  UPSTREAM_BAD_RESPONSE: "Unexpected answer — the token may exist",
  UPSTREAM_CONNECTION_LOST: "Connection lost — the token may exist",
  TOKEN_NOT_RECORDED_YET: "Issued, but not recorded yet — do not issue again",
  ISSUE_OUTCOME_UNKNOWN: "No answer was recorded — the token may exist",
  DATABASE_UNAVAILABLE: "The bank's database is not answering",
  UPSTREAM_UNAUTHORIZED: "The service refused the bank's key",
  UPSTREAM_SERVER_ERROR: "The service is having a problem",
  UPSTREAM_NETWORK: "The service cannot be reached",
  UPSTREAM_REJECTED: "The service refused these details",
  IDEMPOTENCY_KEY_REUSED: "This form was already sent",
  REQUEST_IN_PROGRESS: "Still being processed",
  UNAUTHENTICATED: "Your session has ended",
  FORBIDDEN: "Not allowed for your role",
};

/**
 * Why the token was not issued, worded by error code. When the service may have issued a token
 * anyway, it sends the teller to the token list first and offers a deliberate new attempt.
 */
export function IssueAlert({ alert, onStartNewAttempt }: { alert: IssueAlertState; onStartNewAttempt: () => void }) {
  const isOutcomeUnknown = outcomeUnknownCodes.has(alert.code);
  const offersNewAttempt = isOutcomeUnknown || alert.code === "IDEMPOTENCY_KEY_REUSED";
  const tone = isOutcomeUnknown || alert.code === "IDEMPOTENCY_KEY_REUSED" ? "warning" : "danger";
  return (
    <Alert tone={tone} title={titles[alert.code] ?? "The token was not issued"} attention={alert.hasFieldErrors ? undefined : alert} supportCode={alert.requestId}>
      <div data-testid="issue-alert" data-code={alert.code} className="flex flex-col gap-3">
        <p>{alert.message}</p>
        {offersNewAttempt ? (
          <div className="flex flex-wrap items-center gap-3">
            {isOutcomeUnknown && alert.attemptId ? (
              <Link href={`/tokens/${alert.attemptId}`} className="font-semibold text-info-700 underline underline-offset-2" data-testid="open-attempt">
                Open this attempt (the token from the customer&apos;s SMS, if one was sent)
              </Link>
            ) : isOutcomeUnknown ? (
              <Link href="/tokens" className="font-semibold text-info-700 underline underline-offset-2" target="_blank">
                Open the token list (new tab)
              </Link>
            ) : null}
            <Button type="button" variant="secondary" size="sm" onClick={onStartNewAttempt}>
              Start a new attempt
            </Button>
          </div>
        ) : null}
      </div>
    </Alert>
  );
}
