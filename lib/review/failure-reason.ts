import { errorCatalog } from "@/lib/errors";
import type { ReviewState } from "./filters";

/** The next step for a token whose issuing answer never arrived (the recovery on its token page). */
export const outcomeUnknownNextStep =
  "The service may have issued a token and sent the SMS. Next step, within 15 minutes of the attempt: ask the customer for the token in their SMS; a supervisor who did not issue it can enter it on the token page, where Veridesk checks it with the service and follows it.";

/**
 * Why a token did not end in success, in the words supervisors read in the detail, the list and
 * the CSV: a live failure's reason is the service's own error text (stored as `result_error`,
 * not as an error code: that is why the CSV's error column was empty for failures); a refused or
 * unanswered issuing call is told by its error code's copy. Null when there is nothing to explain.
 * Plain data only: the CSV columns (read by the end-to-end tests) import it.
 */
export function failureReasonOf(row: { state: ReviewState; resultError: string | null; errorCode: string | null }): string | null {
  switch (row.state) {
    case "failed":
      return row.resultError?.trim() || "The service reported a failure without a reason.";
    case "invalid":
      return "The service marked the token invalid: it can no longer be used.";
    case "outcome_unknown":
      // The stale-attempt sweep's code: the service may have answered; its answer was never recorded.
      if (row.errorCode === "ISSUE_OUTCOME_UNKNOWN") return `No answer to the issuing call was recorded in time (Veridesk stopped, or the bank's database refused it). ${outcomeUnknownNextStep}`;
      return `The service's answer to the issuing call never arrived. ${outcomeUnknownNextStep}`;
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
