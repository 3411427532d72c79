/**
 * Lock-out after repeated failed sign-ins, as pure functions over a small state record (stored
 * per typed username in `sign_in_throttles`). Counting is a true sliding window: the failure
 * times themselves are kept, not a counter that resets on a fixed schedule.
 */

export const lockoutPolicy = {
  /** This many failures inside `windowMs`… */
  maxFailures: 5,
  windowMs: 15 * 60_000,
  /** …lock the username for this long. */
  lockMs: 15 * 60_000,
} as const;

export type LockoutPolicy = { maxFailures: number; windowMs: number; lockMs: number };

export type ThrottleState = {
  /** Failure times still inside the window, oldest first. */
  recentFailures: Date[];
  lockedUntil: Date | null;
};

export const LOCKED_MESSAGE =
  "Too many failed attempts. This account is locked for 15 minutes — ask your supervisor if you need help now.";

export const emptyThrottleState = (): ThrottleState => ({ recentFailures: [], lockedUntil: null });

export function isLocked(state: ThrottleState, now: Date): boolean {
  return state.lockedUntil !== null && state.lockedUntil.getTime() > now.getTime();
}

/**
 * The state after one more failed attempt. A failure while locked is not counted (the caller
 * refuses those before checking the password), so a lock cannot be extended forever by someone
 * hammering the form. Reaching the limit locks and starts the count afresh.
 */
export function recordFailure(
  state: ThrottleState,
  now: Date,
  policy: LockoutPolicy = lockoutPolicy,
): { state: ThrottleState; hasJustLocked: boolean } {
  if (isLocked(state, now)) return { state, hasJustLocked: false };
  const windowStart = now.getTime() - policy.windowMs;
  const failures = [...state.recentFailures.filter((at) => at.getTime() > windowStart), now].slice(-policy.maxFailures);
  if (failures.length >= policy.maxFailures) {
    return { state: { recentFailures: [], lockedUntil: new Date(now.getTime() + policy.lockMs) }, hasJustLocked: true };
  }
  return { state: { recentFailures: failures, lockedUntil: null }, hasJustLocked: false };
}

/** A successful sign-in (or an administrator's password reset) clears the count and any lock. */
export function recordSuccess(): ThrottleState {
  return emptyThrottleState();
}

/** How many failures remain before the lock (for logs; never shown, it would help a guesser). */
export function failuresBeforeLock(state: ThrottleState, now: Date, policy: LockoutPolicy = lockoutPolicy): number {
  const windowStart = now.getTime() - policy.windowMs;
  return policy.maxFailures - state.recentFailures.filter((at) => at.getTime() > windowStart).length;
}
