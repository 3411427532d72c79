import { describe, expect, it } from "vitest";
import { FigureAccumulator, percentileCont } from "./figures";

describe("figures arithmetic", () => {
  it("percentileCont interpolates between the closest ranks, as PostgreSQL does", () => {
    expect(percentileCont([], 0.5)).toBeNull();
    expect(percentileCont([7], 0.9)).toBe(7);
    expect(percentileCont([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentileCont([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 0.9)).toBeCloseTo(91);
  });

  it("adds partial rows into counts, a success rate over finished tokens and the time percentiles", () => {
    const figures = new FigureAccumulator();
    figures.add({ liveState: "successful", outcome: "issued", count: 3, msToResult: "60000,120000,180000" });
    figures.add({ liveState: "failed", outcome: "issued", count: 1, msToResult: "240000" });
    figures.add({ liveState: "expired", outcome: "issued", count: 1, msToResult: null });
    figures.add({ liveState: "waiting", outcome: "issued", count: 1, msToResult: null });
    // An issued token the watcher has not looked at yet counts as waiting.
    figures.add({ liveState: null, outcome: "issued", count: 1, msToResult: null });
    figures.add({ liveState: null, outcome: "outcome_unknown", count: 1, msToResult: null });
    figures.add({ liveState: null, outcome: "rejected", count: 2, msToResult: null });
    expect(figures.result()).toEqual({
      requests: 10,
      issued: 7,
      successful: 3,
      failed: 1,
      expired: 1,
      invalid: 0,
      outcomeUnknown: 1,
      open: 2,
      notIssued: 2,
      // 3 successful of 5 finished issued tokens; the unanswered call had no token to finish.
      successRate: 0.6,
      medianSecondsToResult: 150,
      p90SecondsToResult: 222,
    });
  });
});
