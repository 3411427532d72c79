import { errorCatalog, type AppError, type ErrorCode } from "@/lib/errors";
import type { TokenIssueOutcome } from "@/lib/db/schema";

/**
 * What a failed issuing call means for the token. The question is never "did it fail" but "could
 * the service have issued a token (and sent an SMS) anyway": if it could, the attempt is
 * `outcome_unknown` and nobody may silently retry it.
 */

// Connection errors raised before a single byte was sent: the service cannot have acted.
const notSentPattern = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ERR_INVALID_URL)\b/;

export function outcomeOfFailure(error: Pick<AppError, "code" | "message">): Exclude<TokenIssueOutcome, "pending" | "issued"> {
  switch (error.code) {
    case "UPSTREAM_REJECTED":
    case "VALIDATION":
      return "rejected";
    case "UPSTREAM_UNAUTHORIZED":
    case "UPSTREAM_RATE_LIMITED":
    case "UPSTREAM_SERVER_ERROR":
    case "CONFIGURATION":
      return "failed_upstream";
    case "UPSTREAM_NETWORK":
      // A connection reset after the request went out leaves the outcome open.
      return notSentPattern.test(error.message) ? "failed_upstream" : "outcome_unknown";
    default:
      // Timeouts, unreadable 200s and anything unexpected: the token may exist.
      return "outcome_unknown";
  }
}

/**
 * The code a teller's screen is chosen by. A network error after which the token may exist is
 * not "cannot be reached, try again" but UPSTREAM_CONNECTION_LOST, whose copy says to check first.
 */
export function presentedCode(code: ErrorCode, outcome: TokenIssueOutcome): ErrorCode {
  return code === "UPSTREAM_NETWORK" && outcome === "outcome_unknown" ? "UPSTREAM_CONNECTION_LOST" : code;
}

/** The copy a teller reads for a settled failure, from the catalog by its presented code. */
export function userMessageForFailure(code: ErrorCode, outcome: TokenIssueOutcome): string {
  return errorCatalog[presentedCode(code, outcome)].userMessage;
}

export function isErrorCode(value: string | null | undefined): value is ErrorCode {
  return value != null && Object.hasOwn(errorCatalog, value);
}
