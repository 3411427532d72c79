import type { ErrorCode } from "@/lib/errors";

/** Words and times for token screens. Plain data: used by server and client components. */

export const tokenKindLabels = { fingerprint: "Fingerprint", remote: "Remote" } as const;

export const issueOutcomeLabels = {
  pending: "Being issued",
  issued: "Issued",
  outcome_unknown: "Outcome unknown",
  rejected: "Refused by service",
  failed_upstream: "Not issued",
} as const;

/**
 * Failures after which the service may have issued a token (and sent an SMS): the form keeps its
 * idempotency key, so sending it again replays this answer instead of issuing a second token.
 */
export const outcomeUnknownCodes: ReadonlySet<ErrorCode> = new Set([
  "UPSTREAM_TIMEOUT",
  "UPSTREAM_MALFORMED",
  "UPSTREAM_BAD_RESPONSE",
  "UPSTREAM_CONNECTION_LOST",
  "REQUEST_IN_PROGRESS",
  "INTERNAL",
  // The service answered with a token the database has not taken yet: it is kept and recorded later.
  "TOKEN_NOT_RECORDED_YET",
  // An attempt whose answer was never recorded (the stale-attempt sweep): a replay of its form says so.
  "ISSUE_OUTCOME_UNKNOWN",
]);

/** Failures after which certainly no token exists: the next submit is a new attempt. */
export const definitelyNotIssuedCodes: ReadonlySet<ErrorCode> = new Set([
  "UPSTREAM_REJECTED",
  "UPSTREAM_SERVER_ERROR",
  "UPSTREAM_UNAUTHORIZED",
  "UPSTREAM_RATE_LIMITED",
  "UPSTREAM_NETWORK",
]);
