import { wasLinkSent, type TokenKind } from "@/lib/domain/token-kinds";
import { errorCatalog } from "@/lib/errors";
import type { ReviewState } from "./filters";
import { TOKEN_LIFETIME_WORDS } from "@/lib/tokens/lifetime";

/** What an attempt sent the customer: whether a token can be read off their phone (lib/domain/token-kinds.ts). */
export type LinkFacts = { kind: TokenKind; sendSms: boolean | null; hasEmail: boolean };

/**
 * The next step for a token whose issuing answer never arrived. With a link sent, the recovery on
 * its token page (the SMS path); without one the customer has nothing to read out, and a pending
 * token the service made dies unused 15 minutes after it was created (lib/tokens/lifetime.ts).
 */
export function outcomeUnknownNextStep(isLinkSent: boolean): string {
  return isLinkSent ? outcomeUnknownLinkSentStep : outcomeUnknownNoLinkStep;
}

export const outcomeUnknownLinkSentStep =
  `The service may have issued a token and sent the link. Next step, within ${TOKEN_LIFETIME_WORDS} of the attempt: ask the customer for the token in their SMS or e-mail; a supervisor who did not issue it can enter it on the token page, where Veridesk checks it with the service and follows it.`;

export const outcomeUnknownNoLinkStep =
  `No SMS or e-mail was sent for this attempt, so the customer has no token to read out. Next step: if the customer still needs verifying, issue a new token (any token this attempt made was never shown to anyone and expires unused ${TOKEN_LIFETIME_WORDS} after it was made).`;

/** The next step of several attempts at once, some of which may have sent a link. */
export const outcomeUnknownEitherStep =
  `Next step, within ${TOKEN_LIFETIME_WORDS} of the attempt: if it sent an SMS or e-mail, ask the customer for the token in it; a supervisor who did not issue it can enter it on the token page. If it sent neither, the customer has no token to read out: issue a new token if the customer still needs verifying.`;

/**
 * Why a token did not end in success, in the words supervisors read in the detail, the list and
 * the CSV: a live failure's reason is the service's own error text (stored as `result_error`,
 * not as an error code: that is why the CSV's error column was empty for failures); a refused or
 * unanswered issuing call is told by its error code's copy. Null when there is nothing to explain.
 * Plain data only: the CSV columns (read by the end-to-end tests) import it.
 */
export function failureReasonOf(row: LinkFacts & { state: ReviewState; token: string | null; resultError: string | null; errorCode: string | null }): string | null {
  switch (row.state) {
    case "failed":
      return row.resultError?.trim() || "The service reported a failure without a reason.";
    case "invalid":
      return "The service marked the token invalid: it can no longer be used.";
    case "outcome_unknown":
      // A token on record: the issuing answer came; what never came is the result of its use.
      if (row.token !== null) return "The customer started, but the service never sent a result. Next step: ask the customer whether they finished, and call support before trying again.";
      // The stale-attempt sweep's code: the service may have answered; its answer was never recorded.
      if (row.errorCode === "ISSUE_OUTCOME_UNKNOWN") return `No answer to the issuing call was recorded in time (Veridesk stopped, or the bank's database refused it). ${outcomeUnknownNextStep(wasLinkSent(row))}`;
      return `The service's answer to the issuing call never arrived. ${outcomeUnknownNextStep(wasLinkSent(row))}`;
    case "not_issued":
      return row.errorCode ? codeCopy(row.errorCode) : "The service did not issue a token.";
    default:
      return null;
  }
}

function codeCopy(code: string): string {
  const entry = (errorCatalog as Partial<Record<string, { userMessage: string }>>)[code];
  return entry ? entry.userMessage.replace(/\.$/, "") : code;
}
