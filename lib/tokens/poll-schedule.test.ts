import { describe, expect, it } from "vitest";
import { computeNextPollAt, defaultPollSchedulePolicy as policy } from "./poll-schedule";
import { expiryOf } from "./lifetime";
import { deriveTokenState, type DerivedTokenState } from "./state";

const issuedAt = new Date("2026-11-22T09:00:00.000Z");
const expiresAt = expiryOf(issuedAt);
const at = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000);
const noJitter = () => 0.5;

function delayAfter(state: DerivedTokenState, nowSeconds: number, consecutiveFaults = 0, isWatched = true): number | null {
  const next = computeNextPollAt({ derived: state, now: at(nowSeconds), consecutiveFaults, isWatched, random: noJitter });
  return next === null ? null : (next.getTime() - at(nowSeconds).getTime()) / 1000;
}

const waiting: DerivedTokenState = { state: "waiting", isFinal: false, expiresAt };
const inProgress: DerivedTokenState = { state: "in_progress", isFinal: false, expiresAt };
const expiredOpen: DerivedTokenState = { state: "expired", isFinal: false, expiresAt };

describe("computeNextPollAt", () => {
  it("asks every couple of seconds while a page shows the token, far less often while nobody does", () => {
    expect(delayAfter(waiting, 0)).toBe(2);
    expect(delayAfter(waiting, 600)).toBe(2);
    expect(delayAfter(waiting, 0, 0, false)).toBe(30);
    expect(delayAfter(waiting, 600, 0, false)).toBe(30);
  });

  it("never sleeps through the expiry moment, watched or not", () => {
    expect(delayAfter(waiting, 897)).toBe(2);
    expect(delayAfter(waiting, 899.5)).toBe(1.5);
    expect(delayAfter(waiting, 880, 0, false)).toBe(21);
    expect(computeNextPollAt({ derived: waiting, now: at(897), consecutiveFaults: 0, isWatched: false, random: noJitter })).toEqual(
      new Date(expiresAt.getTime() + 1000),
    );
  });

  it("follows a verification in progress at the same cadence within the 15 minutes", () => {
    expect(delayAfter(inProgress, 60)).toBe(2);
    expect(delayAfter(inProgress, 60, 0, false)).toBe(30);
  });

  it("waits for the service's pause (a 429's Retry-After) whatever the cadence, but then never past the expiry", () => {
    const pausedUntil = at(100);
    expect(computeNextPollAt({ derived: waiting, now: at(60), consecutiveFaults: 0, isWatched: true, pausedUntil, random: noJitter })).toEqual(pausedUntil);
    expect(computeNextPollAt({ derived: waiting, now: at(60), consecutiveFaults: 2, isWatched: true, pausedUntil, random: noJitter })).toEqual(pausedUntil);
    expect(computeNextPollAt({ derived: waiting, now: at(60), consecutiveFaults: 0, isWatched: true, pausedUntil: at(30), random: noJitter })).toEqual(at(62));
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

  it("backs off on faults, doubling up to the max, whatever the state; a watched token no further than the unwatched cadence", () => {
    expect(delayAfter(waiting, 10, 1, false)).toBe(5);
    expect(delayAfter(waiting, 10, 2, false)).toBe(10);
    expect(delayAfter(inProgress, 10, 3, false)).toBe(20);
    expect(delayAfter(waiting, 10, 10, false)).toBe(300);
    expect(delayAfter(waiting, 10, 1000, false)).toBe(300);
    expect(delayAfter(waiting, 10, 1)).toBe(5);
    expect(delayAfter(waiting, 10, 10)).toBe(30);
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
        computeNextPollAt({ derived: waiting, now: at(0), consecutiveFaults: 0, isWatched: false, random: () => value })!.getTime() -
        issuedAt.getTime(),
    );
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(30_000 * (1 - policy.jitterRatio));
      expect(delay).toBeLessThanOrEqual(30_000 * (1 + policy.jitterRatio));
    }
    expect(new Set(delays).size).toBe(4);
  });
});
