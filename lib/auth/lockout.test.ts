import { describe, expect, it } from "vitest";
import {
  claimAttempt,
  emptyThrottleState,
  failuresBeforeLock,
  isLocked,
  lockoutPolicy,
  recordFailure,
  recordSuccess,
  releaseAttempt,
  type ThrottleState,
} from "./lockout";

const start = new Date("2026-11-22T09:00:00Z");
const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);

/** One wrong guess as the store runs it: claimed, checked, failed — at the same minute. */
function wrongGuess(state: ThrottleState, minute: number) {
  const claim = claimAttempt(state, at(minute));
  if (!claim.isAllowed) return { state, hasJustLocked: false, wasRefused: true };
  return { ...recordFailure(claim.state, at(minute)), wasRefused: false };
}

function failAt(state: ThrottleState, ...minutes: number[]) {
  let current = { state, hasJustLocked: false, wasRefused: false };
  for (const minute of minutes) current = wrongGuess(current.state, minute);
  return current;
}

describe("lock-out after repeated failed sign-ins", () => {
  it("locks on the 5th failure within 15 minutes, for 15 minutes", () => {
    const four = failAt(emptyThrottleState(), 0, 1, 2, 3);
    expect(four.hasJustLocked).toBe(false);
    expect(isLocked(four.state, at(3))).toBe(false);
    expect(failuresBeforeLock(four.state, at(3))).toBe(1);

    const five = wrongGuess(four.state, 4);
    expect(five.hasJustLocked).toBe(true);
    expect(five.state.lockedUntil).toEqual(at(4 + 15));
    expect(isLocked(five.state, at(18.9))).toBe(true);
    expect(isLocked(five.state, at(19))).toBe(false);
  });

  it("counts in a sliding window: guesses older than 15 minutes no longer count", () => {
    // 0, 5, 10, 14 then 16: the guess at 0 has left the window, so only 4 count.
    const result = failAt(emptyThrottleState(), 0, 5, 10, 14, 16);
    expect(result.hasJustLocked).toBe(false);
    expect(result.state.recentFailures).toHaveLength(4);
    // …and one more inside the window locks.
    expect(wrongGuess(result.state, 17).hasJustLocked).toBe(true);
  });

  it("refuses, without counting or extending, while locked", () => {
    const locked = failAt(emptyThrottleState(), 0, 1, 2, 3, 4).state;
    const claim = claimAttempt(locked, at(10));
    expect(claim).toMatchObject({ isAllowed: false, lockedUntil: at(19) });
    expect(claim.state).toBe(locked);
    expect(recordFailure(locked, at(10)).state).toBe(locked);
  });

  it("lets no more than 5 guesses be checked at once: the 6th claim is refused while 5 are in flight", () => {
    let state = emptyThrottleState();
    for (let guess = 0; guess < lockoutPolicy.maxFailures; guess++) {
      const claim = claimAttempt(state, at(0));
      expect(claim.isAllowed).toBe(true);
      state = claim.state;
    }
    // None has failed yet, so nothing is locked, but no sixth password may be checked.
    expect(isLocked(state, at(0))).toBe(false);
    expect(claimAttempt(state, at(0))).toMatchObject({ isAllowed: false });
    // The first of the five to fail locks the username.
    const failed = recordFailure(state, at(0.1));
    expect(failed.hasJustLocked).toBe(true);
    expect(isLocked(failed.state, at(0.1))).toBe(true);
  });

  it("gives a claim back when the password was right but the account may not sign in", () => {
    const four = failAt(emptyThrottleState(), 0, 1, 2, 3).state;
    const claim = claimAttempt(four, at(4));
    expect(claim.isAllowed).toBe(true);
    const released = releaseAttempt(claim.state);
    expect(released.recentFailures).toHaveLength(4);
    expect(claimAttempt(released, at(4)).isAllowed).toBe(true);
  });

  it("starts counting afresh once a lock has passed", () => {
    const locked = failAt(emptyThrottleState(), 0, 1, 2, 3, 4).state;
    const afterLock = failAt(locked, 20, 21, 22, 23);
    expect(afterLock.hasJustLocked).toBe(false);
    expect(isLocked(afterLock.state, at(23))).toBe(false);
    expect(wrongGuess(afterLock.state, 24).hasJustLocked).toBe(true);
  });

  it("clears everything on a successful sign-in", () => {
    const four = failAt(emptyThrottleState(), 0, 1, 2, 3).state;
    const cleared = recordSuccess();
    expect(cleared).toEqual(emptyThrottleState());
    expect(failuresBeforeLock(cleared, at(4))).toBe(lockoutPolicy.maxFailures);
    expect(failuresBeforeLock(four, at(4))).toBe(1);
  });

  it("keeps no more guess times than it needs", () => {
    const result = failAt(emptyThrottleState(), 0, 1, 2, 3);
    expect(result.state.recentFailures.length).toBeLessThanOrEqual(lockoutPolicy.maxFailures);
  });
});
