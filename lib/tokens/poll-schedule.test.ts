import { describe, expect, it } from "vitest";
import { computeNextPollAt, defaultPollSchedulePolicy as policy } from "./poll-schedule";
import { deriveTokenState, expiresAtOf, type DerivedTokenState } from "./state";

const issuedAt = new Date("2026-11-22T09:00:00.000Z");
const expiresAt = expiresAtOf(issuedAt);
const at = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000);
const noJitter = () => 0.5;

function delayAfter(state: DerivedTokenState, nowSeconds: number, consecutiveFaults = 0): number | null {
  const next = computeNextPollAt({ derived: state, issuedAt, now: at(nowSeconds), consecutiveFaults, random: noJitter });
  return next === null ? null : (next.getTime() - at(nowSeconds).getTime()) / 1000;
}

const waiting: DerivedTokenState = { state: "waiting", isFinal: false, expiresAt };
const inProgress: DerivedTokenState = { state: "in_progress", isFinal: false, expiresAt };
const expiredOpen: DerivedTokenState = { state: "expired", isFinal: false, expiresAt };

describe("computeNextPollAt", () => {
  it("asks every few seconds while the token is fresh, then less often", () => {
    expect(delayAfter(waiting, 0)).toBe(3);
    expect(delayAfter(waiting, 179)).toBe(3);
    expect(delayAfter(waiting, 181)).toBe(6);
    expect(delayAfter(waiting, 600)).toBe(6);
  });

  it("never sleeps through the expiry moment", () => {
    expect(delayAfter(waiting, 898)).toBe(3);
    expect(delayAfter(waiting, 899)).toBe(2);
    expect(computeNextPollAt({ derived: waiting, issuedAt, now: at(897), consecutiveFaults: 0, random: noJitter })).toEqual(
      new Date(expiresAt.getTime() + 1000),
    );
  });

  it("follows a verification in progress closely within the 15 minutes", () => {
    expect(delayAfter(inProgress, 60)).toBe(3);
  });

  it("follows a used token past the 15 minutes with an interval growing with its lateness, up to the max", () => {
    const oneMinuteLate = delayAfter(inProgress, 900 + 60)!;
    const twentyMinutesLate = delayAfter(inProgress, 900 + 20 * 60)!;
    const hoursLate = delayAfter(inProgress, 900 + 5 * 3600)!;
    expect(oneMinuteLate).toBe(policy.lateResultMinIntervalMs / 1000);
    expect(twentyMinutesLate).toBe(300);
    expect(twentyMinutesLate).toBeGreaterThan(oneMinuteLate);
    expect(hoursLate).toBe(policy.lateResultMaxIntervalMs / 1000);
  });

  it("asks again soon after the expiry until the service confirms it", () => {
    expect(delayAfter(expiredOpen, 901)).toBe(5);
  });

  it("backs off on faults, doubling up to the max, whatever the state", () => {
    expect(delayAfter(waiting, 10, 1)).toBe(5);
    expect(delayAfter(waiting, 10, 2)).toBe(10);
    expect(delayAfter(inProgress, 10, 3)).toBe(20);
    expect(delayAfter(waiting, 10, 10)).toBe(300);
    expect(delayAfter(waiting, 10, 1000)).toBe(300);
  });

  it("stops for every final state and for a token never issued", () => {
    for (const state of ["successful", "failed", "expired", "invalid", "outcome_unknown"] as const) {
      expect(delayAfter({ state, isFinal: true, expiresAt }, 10)).toBeNull();
    }
    const neverIssued = deriveTokenState({ issuance: "unanswered", attemptedAt: issuedAt }, at(1));
    expect(delayAfter(neverIssued, 1)).toBeNull();
  });

  it("spreads polls with jitter within the configured ratio", () => {
    const delays = [0, 0.25, 0.75, 0.999].map(
      (value) =>
        computeNextPollAt({ derived: waiting, issuedAt, now: at(0), consecutiveFaults: 0, random: () => value })!.getTime() -
        issuedAt.getTime(),
    );
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(3000 * (1 - policy.jitterRatio));
      expect(delay).toBeLessThanOrEqual(3000 * (1 + policy.jitterRatio));
    }
    expect(new Set(delays).size).toBe(4);
  });
});
