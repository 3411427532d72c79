/**
 * Lock-out after repeated failed sign-ins, as pure functions over a small state record (stored
 * per typed username in `sign_in_throttles`). Counting is a true sliding window: the attempt
 * times themselves are kept, not a counter that resets on a fixed schedule.
 *
 * A guess is counted when it is CLAIMED, before its password is checked, not when it has failed:
 * a burst of simultaneous guesses would otherwise all be checked against the same stale count.
 * The claim and the check of the limit happen in one row-locked transaction (lockout-store.ts), so
 * at most `maxFailures` passwords are ever checked per window, however many arrive at once.
 */

export const lockoutPolicy = {
  /** This many guesses inside `windowMs`… */
  maxFailures: 5,
  windowMs: 15 * 60_000,
  /** …lock the username for this long (once the last of them has failed). */
  lockMs: 15 * 60_000,
} as const;

export type LockoutPolicy = { maxFailures: number; windowMs: number; lockMs: number };

export type ThrottleState = {
  /** Times of the guesses claimed inside the window (failed or still being checked), oldest first. */
  recentFailures: Date[];
  lockedUntil: Date | null;
};

export const LOCKED_MESSAGE =
  "Too many failed attempts. This account is locked for 15 minutes — ask your supervisor if you need help now.";

export const emptyThrottleState = (): ThrottleState => ({ recentFailures: [], lockedUntil: null });

export function isLocked(state: ThrottleState, now: Date): boolean {
  return state.lockedUntil !== null && state.lockedUntil.getTime() > now.getTime();
}

function inWindow(state: ThrottleState, now: Date, policy: LockoutPolicy): Date[] {
  const windowStart = now.getTime() - policy.windowMs;
  return state.recentFailures.filter((at) => at.getTime() > windowStart);
}

export type Claim =
  | { isAllowed: true; state: ThrottleState }
  | { isAllowed: false; state: ThrottleState; lockedUntil: Date };

/**
 * Asks to check one more password. Refused while locked, and while the window already holds
 * `maxFailures` guesses — also when some of those are still being checked (they may yet lock).
 * A refused claim changes nothing, so hammering a locked form cannot extend the lock.
 */
export function claimAttempt(state: ThrottleState, now: Date, policy: LockoutPolicy = lockoutPolicy): Claim {
  if (isLocked(state, now)) return { isAllowed: false, state, lockedUntil: state.lockedUntil! };
  const recent = inWindow(state, now, policy);
  if (recent.length >= policy.maxFailures) {
    // The guesses in flight will lock on failing; until then, refuse as if locked already.
    return { isAllowed: false, state, lockedUntil: new Date(recent[0]!.getTime() + policy.windowMs) };
  }
  return { isAllowed: true, state: { recentFailures: [...recent, now], lockedUntil: null } };
}

/**
 * The state after a claimed guess turned out wrong. The guess is already counted; if the window
 * is full, the username locks and the count starts afresh. Already locked: unchanged.
 */
export function recordFailure(
  state: ThrottleState,
  now: Date,
  policy: LockoutPolicy = lockoutPolicy,
): { state: ThrottleState; hasJustLocked: boolean } {
  if (isLocked(state, now)) return { state, hasJustLocked: false };
  const recent = inWindow(state, now, policy);
  if (recent.length >= policy.maxFailures) {
    return { state: { recentFailures: [], lockedUntil: new Date(now.getTime() + policy.lockMs) }, hasJustLocked: true };
  }
  return { state: { recentFailures: recent, lockedUntil: null }, hasJustLocked: false };
}

/**
 * A claimed guess that was not a guess after all (the password was right but the account may
 * not sign in: disabled, or a demo account in production): it gives its place back.
 */
export function releaseAttempt(state: ThrottleState): ThrottleState {
  return { ...state, recentFailures: state.recentFailures.slice(0, -1) };
}

/** A successful sign-in (or an administrator's password reset) clears the count and any lock. */
export function recordSuccess(): ThrottleState {
  return emptyThrottleState();
}

/** How many guesses remain before the lock (for logs; never shown, it would help a guesser). */
export function failuresBeforeLock(state: ThrottleState, now: Date, policy: LockoutPolicy = lockoutPolicy): number {
  return policy.maxFailures - inWindow(state, now, policy).length;
}
