import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bankDayOf, bankDayRange, formatDate, formatDateTime, formatDay, formatDayRange, formatIsoDateTime, formatTime, offsetMinutes, startOfBankDay } from "./bank-time";

describe("dates and times for people", () => {
  it("writes one format: 24 Nov 2026, and 24 Nov 2026, 14:05 with a time", () => {
    expect(formatDate("2026-11-24T14:05:09Z")).toBe("24 Nov 2026");
    expect(formatDateTime("2026-11-24T14:05:09Z")).toBe("24 Nov 2026, 14:05");
    expect(formatDateTime(new Date("2026-11-24T14:05:09Z"), { seconds: true })).toBe("24 Nov 2026, 14:05:09");
    expect(formatTime(Date.parse("2026-11-24T09:05:09Z"))).toBe("09:05");
    expect(formatTime("2026-11-24T09:05:09Z", { seconds: true })).toBe("09:05:09");
  });

  it("uses three-letter months whatever the engine's words (never Sept)", () => {
    expect(formatDate("2026-09-04T12:00:00Z")).toBe("4 Sep 2026");
    expect(formatDay("2026-09-04")).toBe("4 Sep 2026");
  });

  it("writes calendar days as they are, with the weekday when asked", () => {
    expect(formatDay("2026-11-24")).toBe("24 Nov 2026");
    expect(formatDay("2026-11-24", { weekday: true })).toBe("Tue 24 Nov 2026");
    expect(formatDayRange("2026-11-24", "2026-11-30")).toBe("24 Nov 2026 to 30 Nov 2026");
    expect(formatDayRange("2026-11-24", "2026-11-24")).toBe("24 Nov 2026");
    // Not a day: shown as it came (an old audit row), never a wrong date.
    expect(formatDay("2026-02-31")).toBe("2026-02-31");
    expect(formatDay("9999-99-99")).toBe("9999-99-99");
  });

  it("reads the bank's clock, not the machine's: Accra is GMT all year", () => {
    expect(offsetMinutes(new Date("2026-07-01T12:00:00Z"))).toBe(0);
    expect(offsetMinutes(new Date("2026-07-01T12:00:00Z"), "Africa/Lagos")).toBe(60);
    // Late evening in Accra is still the same day there.
    expect(formatDateTime("2026-11-24T23:59:00Z")).toBe("24 Nov 2026, 23:59");
  });

  it("keeps ISO order for machines (CSV exports only)", () => {
    expect(formatIsoDateTime("2026-11-20T09:30:05.900Z")).toBe("2026-11-20 09:30:05");
    expect(formatIsoDateTime(new Date("2026-01-01T00:00:00Z"))).toBe("2026-01-01 00:00:00");
    expect(formatIsoDateTime(Date.parse("2026-01-01T00:00:00Z"))).toBe("2026-01-01 00:00:00");
    expect(formatIsoDateTime(null)).toBe("");
  });
});

/**
 * One module writes dates for people. A second formatter is how "11/25/2026" and "2026-11-24"
 * reached the screens next to "24 Nov 2026": this fails on any other place that formats a date
 * with Intl or toLocale…String, or names a time zone instead of using BANK_TIME_ZONE.
 */
describe("lib/bank-time.ts is the only way to write a date", () => {
  const root = path.resolve(__dirname, "..");
  const sourceFiles = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(relative);
      return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
    });
  const forbidden: [RegExp, string][] = [
    [/Intl\.DateTimeFormat/, "Intl.DateTimeFormat"],
    [/\.toLocale(Date|Time)String\(/, "toLocaleDateString / toLocaleTimeString"],
    [/["'`](Africa|Europe|America|Asia|Etc)\/[A-Z]/, "a hard-coded time zone"],
  ];

  it("nothing in app/, components/ or lib/ formats a date another way", () => {
    const found: string[] = [];
    for (const file of ["app", "components", "lib"].flatMap(sourceFiles)) {
      if (file === path.join("lib", "bank-time.ts")) continue;
      const text = readFileSync(path.join(root, file), "utf8");
      for (const [pattern, what] of forbidden) if (pattern.test(text)) found.push(`${file}: ${what}`);
    }
    expect(found).toEqual([]);
  });
});

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
