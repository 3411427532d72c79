import "server-only";
import type { ErrorCode } from "@/lib/errors";

export type RetryPolicy = {
  /** Attempts in all, the first included. */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
};

export const defaultRetryPolicy: RetryPolicy = { attempts: 3, initialDelayMs: 200, maxDelayMs: 800 };

/**
 * Failures that may pass on their own. A 4xx, a refused key or a body of the wrong shape will
 * come back the same, so repeating the call only delays the error.
 */
const transientCodes: ReadonlySet<ErrorCode> = new Set([
  "UPSTREAM_NETWORK",
  "UPSTREAM_TIMEOUT",
  "UPSTREAM_SERVER_ERROR",
  "UPSTREAM_MALFORMED",
]);

export function isTransientFailure(code: ErrorCode): boolean {
  return transientCodes.has(code);
}

/**
 * Wait before the attempt after `failedAttempt` (1-based): doubling from the initial delay up to the
 * cap, with the upper half randomised so that many watchers retrying at once do not stay in step.
 */
export function computeBackoffDelay(failedAttempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (failedAttempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
