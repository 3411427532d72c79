import { describe, expect, it } from "vitest";
import { bankDayOf, bankDayRange, startOfBankDay } from "./time";

describe("bank days", () => {
  it("in Accra (GMT all year) a day is the UTC day", () => {
    expect(startOfBankDay("2026-11-20").toISOString()).toBe("2026-11-20T00:00:00.000Z");
    expect(bankDayRange("2026-11-01", "2026-11-30")).toEqual({
      start: new Date("2026-11-01T00:00:00.000Z"),
      end: new Date("2026-12-01T00:00:00.000Z"),
    });
    expect(bankDayOf(new Date("2026-11-20T23:59:59.999Z"))).toBe("2026-11-20");
  });

  it("elsewhere the day starts at local midnight, across daylight-saving changes", () => {
    expect(startOfBankDay("2026-11-20", "Africa/Lagos").toISOString()).toBe("2026-11-19T23:00:00.000Z");
    expect(startOfBankDay("2026-07-01", "Europe/London").toISOString()).toBe("2026-06-30T23:00:00.000Z");
    expect(bankDayOf(new Date("2026-11-19T23:30:00Z"), "Africa/Lagos")).toBe("2026-11-20");
  });
});
