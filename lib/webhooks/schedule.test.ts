import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, nextAttemptAt } from "./schedule";

describe("the retry schedule", () => {
  const at = new Date("2026-11-27T08:00:00Z");
  const waits = (random: () => number) => {
    const found: number[] = [];
    for (let attempts = 1; ; attempts += 1) {
      const next = nextAttemptAt(attempts, at, random);
      if (!next) return found;
      found.push(next.getTime() - at.getTime());
    }
  };

  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h, for about three days", () => {
    const exact = waits(() => 0.5);
    expect(exact.slice(0, 6)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(exact.length + 1).toBe(MAX_ATTEMPTS);
    const totalHours = exact.reduce((sum, wait) => sum + wait, 0) / 3_600_000;
    expect(totalHours).toBeGreaterThan(70);
    expect(totalHours).toBeLessThan(80);
  });

  it("moves each wait by at most a tenth", () => {
    expect(waits(() => 0)[1]).toBe(270_000);
    expect(waits(() => 1)[1]).toBe(330_000);
  });
});
