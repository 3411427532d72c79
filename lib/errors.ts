/**
 * The one error type of Veridesk. Every failure that crosses a module boundary is an AppError
 * with a stable code; the UI and the HTTP layer pick their wording and status from the table
 * below, so the copy a teller reads and the status a route answers can never drift apart.
 */

export const errorCatalog = {
  VALIDATION: {
    httpStatus: 422,
    userMessage: "Some fields need attention. Check the messages next to them.",
  },
  UNAUTHENTICATED: {
    httpStatus: 401,
    userMessage: "Your session has ended. Sign in again to continue.",
  },
  FORBIDDEN: {
    httpStatus: 403,
    userMessage: "Your role does not allow this.",
  },
  PASSWORD_CHANGE_REQUIRED: {
    httpStatus: 403,
    userMessage: "Choose a new password first: you signed in with a temporary password from your administrator.",
  },
  SECOND_FACTOR_REQUIRED: {
    httpStatus: 403,
    userMessage: "Set up your second factor first: your account must sign in with an authenticator app.",
  },
  SECOND_FACTOR_NOT_PROVEN: {
    httpStatus: 403,
    userMessage:
      "Sign out and sign in again with your passkey or authenticator app first: only a session that proved a second factor may add, replace or remove one.",
  },
  NOT_FOUND: {
    httpStatus: 404,
    userMessage: "We could not find that.",
  },
  CONFLICT: {
    httpStatus: 409,
    userMessage: "This was changed or submitted already. Check the latest state before trying again.",
  },
  IDEMPOTENCY_KEY_REUSED: {
    httpStatus: 409,
    userMessage:
      "This form was already sent with other details. Nothing new was issued. Start a new form to issue a token with these details.",
  },
  REQUEST_IN_PROGRESS: {
    httpStatus: 409,
    userMessage:
      "This request is still being processed. Wait a moment, then check the token list before trying again.",
  },
  RATE_LIMITED: {
    httpStatus: 429,
    userMessage: "Too many attempts. Wait a few minutes and try again.",
  },
  UPSTREAM_TIMEOUT: {
    httpStatus: 504,
    userMessage:
      "The verification service did not answer in time. It may still have created the token (and sent its link, if an SMS or e-mail was asked for) — open this attempt before trying again.",
  },
  UPSTREAM_NETWORK: {
    httpStatus: 503,
    userMessage: "The verification service cannot be reached. Try again in a few minutes.",
  },
  UPSTREAM_CONNECTION_LOST: {
    httpStatus: 502,
    userMessage:
      "The connection to the verification service broke during the request. The token may or may not exist — check the token list before trying again.",
  },
  UPSTREAM_UNAUTHORIZED: {
    httpStatus: 502,
    userMessage: "The bank's service key was refused by the verification service. Call your administrator.",
  },
  UPSTREAM_REJECTED: {
    httpStatus: 422,
    userMessage: "The verification service refused the request. Check the details and try again.",
  },
  UPSTREAM_RATE_LIMITED: {
    httpStatus: 503,
    userMessage: "The verification service is busy and asked us to slow down. Nothing was issued. Try again in a minute.",
  },
  UPSTREAM_SERVER_ERROR: {
    httpStatus: 502,
    userMessage: "The verification service is having a problem. Try again in a few minutes.",
  },
  UPSTREAM_BAD_RESPONSE: {
    httpStatus: 502,
    userMessage:
      "The verification service sent an answer we could not read. The token may or may not exist — check the token list before trying again.",
  },
  UPSTREAM_MALFORMED: {
    httpStatus: 502,
    userMessage:
      "The verification service sent an answer we could not read. The token may or may not exist — check the token list before trying again.",
  },
  DATABASE_UNAVAILABLE: {
    httpStatus: 503,
    userMessage:
      "The bank's database is not answering, so nothing was saved. Try again in a few minutes, and call your administrator if it keeps happening.",
  },
  TOKEN_NOT_RECORDED_YET: {
    httpStatus: 503,
    userMessage:
      "The verification service issued the token, but the bank's database is not answering, so Veridesk has not recorded it yet. Do not issue another token: Veridesk keeps the token and records it as soon as the database is back. Open this attempt in a few minutes; if it still shows no token, a supervisor can enter the token from the customer's SMS (when an SMS or e-mail was sent).",
  },
  // Not thrown by a call: what an attempt left `pending` past its issuing limit is recorded with
  // (lib/tokens/stale-attempts.ts). Nobody saw the service time out; only the answer is missing.
  // A replay of its form answers with it, with a timeout's status: to a client, the answer never came.
  ISSUE_OUTCOME_UNKNOWN: {
    httpStatus: 504,
    userMessage:
      "Veridesk has no record of the verification service's answer to this request (Veridesk stopped, or the bank's database refused the answer). The token may have been issued (and its link sent, if an SMS or e-mail was asked for) — before issuing another one, open this attempt's page: it says whether the customer can read a token out (a supervisor enters it there) or a new token is needed.",
  },
  CONFIGURATION: {
    httpStatus: 500,
    userMessage: "Veridesk is not configured correctly. Call your administrator.",
  },
  INTERNAL: {
    httpStatus: 500,
    userMessage: "Something went wrong on our side. Try again, and call your administrator if it keeps happening.",
  },
} as const satisfies Record<string, { httpStatus: number; userMessage: string }>;

export type ErrorCode = keyof typeof errorCatalog;

/** Field name → messages meant for the person who typed the value. */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Safe to show to staff; defaults to the catalog's copy for the code. */
  readonly userMessage: string;
  readonly fieldErrors: FieldErrors | undefined;
  /** UPSTREAM_RATE_LIMITED: how long the service asked us to wait (its Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;
  /** The record the failure leaves behind for staff to open (an issuing attempt whose outcome is unknown). */
  readonly subjectId: string | undefined;

  constructor(
    code: ErrorCode,
    internalMessage: string,
    options: { userMessage?: string; fieldErrors?: FieldErrors; cause?: unknown; retryAfterMs?: number; subjectId?: string } = {},
  ) {
    super(internalMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = options.userMessage ?? errorCatalog[code].userMessage;
    this.fieldErrors = options.fieldErrors;
    this.retryAfterMs = options.retryAfterMs;
    this.subjectId = options.subjectId;
  }

  get httpStatus(): number {
    return errorCatalog[this.code].httpStatus;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** Wraps anything thrown into an AppError, keeping the original as the cause for the log. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  // A database that cannot write or cannot be reached is not "something went wrong": say so.
  if (isDatabaseUnavailable(error)) return new AppError("DATABASE_UNAVAILABLE", message, { cause: error });
  return new AppError("INTERNAL", message, { cause: error });
}

/**
 * PostgreSQL's classes for "the database cannot do this now", whatever the statement: connection
 * (08), insufficient resources such as a full disk (53), operator intervention such as a shutdown
 * (57P), system and I/O errors (58), and PGlite's file system running out of room (XX000 with
 * "No space left"). Constraint violations and bad SQL are ours, never an outage.
 */
const unavailableSqlState = /^(08|53|57P|58)/;
const unavailableSystemCode = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOSPC|EIO|EROFS|EDQUOT)$/;
const unavailableMessage = /no space left on device|could not (extend|write to) file|database system is (shutting down|starting up)|connection terminated|Connection terminated|ENOSPC/;

/** Whether an error (or any of its causes) says the database is not answering or cannot write. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current !== "object") return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (unavailableSqlState.test(code) || unavailableSystemCode.test(code))) return true;
    if (typeof message === "string" && unavailableMessage.test(message)) return true;
    current = cause;
  }
  return false;
}

/** Errors of the verification service itself (never a failed verification). */
export function isUpstreamFault(code: ErrorCode): boolean {
  return code.startsWith("UPSTREAM_");
}
