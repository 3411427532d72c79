import { describe, expect, it } from "vitest";
import { formatDuration, formatRate } from "./format";

describe("review formatting", () => {
  it("writes durations and rates for people", () => {
    expect(formatDuration(42)).toBe("42 s");
    expect(formatDuration(95)).toBe("1 min 35 s");
    expect(formatDuration(3_725)).toBe("1 h 2 min");
    expect(formatDuration(null)).toBe("—");
    expect(formatRate(0.87345)).toBe("87.3 %");
    expect(formatRate(null)).toBe("—");
  });
});
