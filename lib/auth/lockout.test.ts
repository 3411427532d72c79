import { describe, expect, it } from "vitest";
import { emptyThrottleState, failuresBeforeLock, isLocked, lockoutPolicy, recordFailure, recordSuccess, type ThrottleState } from "./lockout";

const start = new Date("2026-11-22T09:00:00Z");
const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);

function failAt(state: ThrottleState, ...minutes: number[]) {
  let current = state;
  let hasJustLocked = false;
  for (const minute of minutes) ({ state: current, hasJustLocked } = recordFailure(current, at(minute)));
  return { state: current, hasJustLocked };
}

describe("lock-out after repeated failed sign-ins", () => {
  it("locks on the 5th failure within 15 minutes, for 15 minutes", () => {
    const four = failAt(emptyThrottleState(), 0, 1, 2, 3);
    expect(four.hasJustLocked).toBe(false);
    expect(isLocked(four.state, at(3))).toBe(false);
    expect(failuresBeforeLock(four.state, at(3))).toBe(1);

    const five = recordFailure(four.state, at(4));
    expect(five.hasJustLocked).toBe(true);
    expect(five.state.lockedUntil).toEqual(at(4 + 15));
    expect(isLocked(five.state, at(18.9))).toBe(true);
    expect(isLocked(five.state, at(19))).toBe(false);
  });

  it("counts in a sliding window: failures older than 15 minutes no longer count", () => {
    // 0, 5, 10, 14 then 16: the failure at 0 has left the window, so only 4 count.
    const result = failAt(emptyThrottleState(), 0, 5, 10, 14, 16);
    expect(result.hasJustLocked).toBe(false);
    expect(result.state.recentFailures).toHaveLength(4);
    // …and one more inside the window locks.
    expect(recordFailure(result.state, at(17)).hasJustLocked).toBe(true);
  });

  it("does not count or extend while locked", () => {
    const locked = failAt(emptyThrottleState(), 0, 1, 2, 3, 4).state;
    const again = recordFailure(locked, at(10));
    expect(again.hasJustLocked).toBe(false);
    expect(again.state).toBe(locked);
    expect(again.state.lockedUntil).toEqual(at(19));
  });

  it("starts counting afresh once a lock has passed", () => {
    const locked = failAt(emptyThrottleState(), 0, 1, 2, 3, 4).state;
    const afterLock = failAt(locked, 20, 21, 22, 23);
    expect(afterLock.hasJustLocked).toBe(false);
    expect(isLocked(afterLock.state, at(23))).toBe(false);
    expect(recordFailure(afterLock.state, at(24)).hasJustLocked).toBe(true);
  });

  it("clears everything on a successful sign-in", () => {
    const four = failAt(emptyThrottleState(), 0, 1, 2, 3).state;
    const cleared = recordSuccess();
    expect(cleared).toEqual(emptyThrottleState());
    expect(failuresBeforeLock(cleared, at(4))).toBe(lockoutPolicy.maxFailures);
    expect(failuresBeforeLock(four, at(4))).toBe(1);
  });

  it("keeps no more failure times than it needs", () => {
    const result = failAt(emptyThrottleState(), 0, 1, 2, 3);
    expect(result.state.recentFailures.length).toBeLessThanOrEqual(lockoutPolicy.maxFailures);
  });
});
