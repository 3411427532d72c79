import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRiskLoop, riskLoopSettings } from "./boot";

/**
 * The risk rules' loop apart from the database (ADR 0047): idle it backs off and only reads the
 * two newest versions; a nudge brings the next full pass back to its usual pace.
 */

function setup() {
  const state = { tokenVersion: 0, auditSeq: 0 };
  const counts = { passes: 0, looks: 0 };
  const loop = createRiskLoop({
    settings: riskLoopSettings,
    async pass() {
      counts.passes += 1;
      return { tokenCursor: state.tokenVersion, auditCursor: state.auditSeq };
    },
    async newest() {
      counts.looks += 1;
      return { ...state };
    },
    onError: () => undefined,
  });
  return { state, counts, loop };
}

describe("the risk rules' loop", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("idle, backs off to idleMaxMs with cheap looks, and runs a full pass only every recheckMs", async () => {
    const { counts, loop } = setup();
    await vi.advanceTimersByTimeAsync(600_000);
    const { intervalMs, idleMaxMs, recheckMs } = riskLoopSettings;
    // Ten minutes: a full pass each recheckMs (the first two: start, and the one finding nothing new).
    expect(counts.passes).toBeLessThanOrEqual(600_000 / recheckMs + 2);
    expect(counts.passes + counts.looks).toBeLessThanOrEqual(600_000 / idleMaxMs + 6);
    // Never idle longer than its bound: at least one look or pass per idleMaxMs.
    expect(counts.passes + counts.looks).toBeGreaterThanOrEqual(600_000 / idleMaxMs - 1);
    expect(intervalMs).toBeLessThan(idleMaxMs);
    await loop.stop();
  });

  it("a nudge brings the next full pass within intervalMs of the last, however far it had backed off", async () => {
    const { counts, loop } = setup();
    await vi.advanceTimersByTimeAsync(120_000);
    const passes = counts.passes;
    loop.nudge();
    await vi.advanceTimersByTimeAsync(riskLoopSettings.intervalMs);
    expect(counts.passes).toBe(passes + 1);
    await loop.stop();
  });

  it("work written by another instance (no nudge) is read by a full pass within idleMaxMs", async () => {
    const { state, counts, loop } = setup();
    await vi.advanceTimersByTimeAsync(120_000);
    const passes = counts.passes;
    state.tokenVersion += 3;
    let waitedMs = 0;
    while (counts.passes === passes && waitedMs < 60_000) {
      await vi.advanceTimersByTimeAsync(100);
      waitedMs += 100;
    }
    expect(waitedMs).toBeLessThanOrEqual(riskLoopSettings.idleMaxMs);
    expect(counts.passes).toBe(passes + 1);
    // Having found something, it is back at its usual pace.
    state.auditSeq += 1;
    await vi.advanceTimersByTimeAsync(riskLoopSettings.intervalMs + 10);
    expect(counts.passes).toBe(passes + 2);
    await loop.stop();
  });

  it("stops: no pass after stop()", async () => {
    const { counts, loop } = setup();
    await vi.advanceTimersByTimeAsync(10_000);
    await loop.stop();
    const seen = counts.passes + counts.looks;
    await vi.advanceTimersByTimeAsync(600_000);
    expect(counts.passes + counts.looks).toBe(seen);
  });
});
