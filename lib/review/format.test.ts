import { describe, expect, it } from "vitest";
import { formatBankDateTime, formatDuration, formatRate } from "./format";

describe("review formatting", () => {
  it("writes bank time (Accra = UTC) as a sortable date-time", () => {
    expect(formatBankDateTime("2026-11-20T09:30:05.900Z")).toBe("2026-11-20 09:30:05");
    expect(formatBankDateTime(new Date("2026-01-01T00:00:00Z"))).toBe("2026-01-01 00:00:00");
    expect(formatBankDateTime(null)).toBe("");
  });

  it("writes durations and rates for people", () => {
    expect(formatDuration(42)).toBe("42 s");
    expect(formatDuration(95)).toBe("1 min 35 s");
    expect(formatDuration(3_725)).toBe("1 h 2 min");
    expect(formatDuration(null)).toBe("—");
    expect(formatRate(0.87345)).toBe("87.3 %");
    expect(formatRate(null)).toBe("—");
  });
});
