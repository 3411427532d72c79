import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/types";
import { STALE_SWEEP_IDLE_INTERVAL_MS, STALE_SWEEP_INTERVAL_MS, startStaleAttemptSweep } from "./stale-attempts";
import { pendingLimitMs } from "./token-facts";

/**
 * The sweep's pace (ADR 0047): its short interval while an attempt it knows of can still go stale,
 * the idle one otherwise. What a sweep marks is proven against a real database in
 * unrecorded-answer.integration.test.ts; here each sweep is counted (its transaction).
 */

const issueTimeoutMs = 12_000;

function setup() {
  const counts = { sweeps: 0 };
  const db = {
    transaction: async () => {
      counts.sweeps += 1;
      throw new Error("counted, not run");
    },
  } as unknown as Database;
  const sweep = startStaleAttemptSweep({ db, issueTimeoutMs, log: { info: () => undefined, warn: () => undefined } });
  return { counts, sweep };
}

describe("the stale-attempt sweep's pace", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sweeps every interval while an attempt left by the previous run can go stale, then every idle interval", async () => {
    const { counts, sweep } = setup();
    const busyMs = pendingLimitMs(issueTimeoutMs) + STALE_SWEEP_INTERVAL_MS;
    await vi.advanceTimersByTimeAsync(busyMs);
    expect(counts.sweeps).toBeGreaterThanOrEqual(Math.floor(busyMs / STALE_SWEEP_INTERVAL_MS));
    const busySweeps = counts.sweeps;
    await vi.advanceTimersByTimeAsync(10 * STALE_SWEEP_IDLE_INTERVAL_MS);
    expect(counts.sweeps - busySweeps).toBeLessThanOrEqual(11);
    expect(counts.sweeps - busySweeps).toBeGreaterThanOrEqual(9);
    sweep.stop();
  });

  it("an attempt recorded here brings the short interval back at once, until it could have gone stale", async () => {
    const { counts, sweep } = setup();
    await vi.advanceTimersByTimeAsync(5 * STALE_SWEEP_IDLE_INTERVAL_MS);
    const before = counts.sweeps;
    sweep.attemptRecorded();
    const staleAfterMs = pendingLimitMs(issueTimeoutMs);
    await vi.advanceTimersByTimeAsync(staleAfterMs + STALE_SWEEP_INTERVAL_MS);
    // Swept at the short pace all through, so the attempt is marked within an interval of its limit.
    expect(counts.sweeps - before).toBeGreaterThanOrEqual(Math.floor((staleAfterMs + STALE_SWEEP_INTERVAL_MS) / STALE_SWEEP_INTERVAL_MS));
    sweep.stop();
    const stopped = counts.sweeps;
    await vi.advanceTimersByTimeAsync(STALE_SWEEP_IDLE_INTERVAL_MS * 2);
    expect(counts.sweeps).toBe(stopped);
  });
});
