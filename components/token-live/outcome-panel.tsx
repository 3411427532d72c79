import { Ban, CheckCircle2, CircleHelp, Loader2, TimerOff, XCircle } from "lucide-react";
import type { LiveTokenSummary } from "@/lib/live/dto";
import { TOKEN_LIFETIME_WORDS } from "@/lib/tokens/lifetime";

/**
 * What the state means for the teller, in one sentence, with the result when there is one: the
 * transaction number of a success, the service's own error text of a failure.
 */
export function OutcomePanel({
  token,
  canAttachSmsToken = false,
}: {
  token: Pick<LiveTokenSummary, "state" | "result" | "kind" | "outcomeUnknownReason"> & { awaitsSmsToken?: boolean };
  /** The viewer may enter the token from the customer's SMS here (a supervisor, not the issuer). */
  canAttachSmsToken?: boolean;
}) {
  switch (token.state) {
    case "waiting":
      return (
        <p className="text-lg text-ink-muted">
          {token.kind === "fingerprint"
            ? "Enter or scan this token on the fingerprint device, then let the customer place their finger."
            : "The customer has the link. Nothing to do until they open it."}
        </p>
      );
    case "in_progress":
      return (
        <p className="flex items-center gap-2 text-lg text-ink" data-testid="outcome">
          <Loader2 aria-hidden className="size-5 animate-spin text-brand-700 motion-reduce:animate-none" />
          The customer has started. The result appears here as soon as the service has it.
        </p>
      );
    case "successful":
      return (
        <div className="rounded-card border-2 border-success-600 bg-success-50 p-4" data-testid="outcome">
          <p className="flex items-center gap-2 text-xl font-bold text-success-700">
            <CheckCircle2 aria-hidden className="size-6" /> Identity verified
          </p>
          <p className="mt-2 text-ink">Transaction number</p>
          <p className="font-mono text-2xl font-bold tracking-wide break-all text-ink" data-testid="transaction-number">
            {token.result?.transactionNumber}
          </p>
        </div>
      );
    case "failed":
      return (
        <div className="rounded-card border-2 border-danger-600 bg-danger-50 p-4" data-testid="outcome">
          <p className="flex items-center gap-2 text-xl font-bold text-danger-700">
            <XCircle aria-hidden className="size-6" /> Verification failed
          </p>
          <p className="mt-2 text-ink">
            The service says: <strong data-testid="failure-reason">{token.result?.error ?? "no reason given"}</strong>
          </p>
          {token.result?.transactionNumber ? (
            <p className="mt-1 text-ink-muted">
              Transaction number <span className="font-mono" data-testid="transaction-number">{token.result.transactionNumber}</span>
            </p>
          ) : null}
        </div>
      );
    case "expired":
      return (
        <p className="flex items-center gap-2 text-lg text-ink" data-testid="outcome">
          <TimerOff aria-hidden className="size-5 text-ink-muted" />
          The customer did not start within {TOKEN_LIFETIME_WORDS}. The token can no longer be used.
        </p>
      );
    case "invalid":
      return (
        <p className="flex items-center gap-2 text-lg text-ink" data-testid="outcome">
          <Ban aria-hidden className="size-5 text-danger-700" />
          The service does not know this token. Issue a new one.
        </p>
      );
    case "outcome_unknown":
      return (
        <div className="rounded-card border-2 border-warning-600 bg-warning-50 p-4 text-ink" data-testid="outcome">
          <p className="flex items-center gap-2 text-lg font-bold text-warning-700">
            <CircleHelp aria-hidden className="size-5" /> Outcome unknown
          </p>
          <p className="mt-1">
            {token.outcomeUnknownReason === "result_never_arrived"
              ? "The customer started, but the service never sent a result. Ask the customer whether they finished, and call support before trying again."
              : !token.awaitsSmsToken
                ? "No answer of the service was recorded when this token was requested. No link was sent to the customer, so there is nothing to recover: issue a new token."
                : canAttachSmsToken
                  ? "No answer of the service was recorded when this token was requested (it did not answer in time, or Veridesk stopped before recording it), but it may still have created it and sent the link. Ask the customer whether an SMS arrived: if it did, read its token on the customer's own phone and enter it below; Veridesk checks it with the service and follows it. If nothing arrived, the teller issues a new token."
                  : "No answer of the service was recorded when this token was requested (it did not answer in time, or Veridesk stopped before recording it), but it may still have created it and sent the link."}
          </p>
          {token.outcomeUnknownReason !== "result_never_arrived" && token.awaitsSmsToken && !canAttachSmsToken ? (
            // Entering the token is a supervisor's act (ADR 0037): the teller is told whom to ask.
            <p className="mt-2 font-semibold" data-testid="ask-supervisor">
              Ask a supervisor to enter the token from the customer&apos;s SMS, if one arrived. If nothing arrived, issue a new token.
            </p>
          ) : null}
        </div>
      );
  }
}
