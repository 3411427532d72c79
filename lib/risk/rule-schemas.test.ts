import { describe, expect, it } from "vitest";
import { collectIssues } from "@/lib/actions/wrapper";
import { maxBacktestDays, parseBacktestRange, ruleProposalSchema } from "./rule-schemas";
import { ruleOf, RULE_KEYS } from "./rules";

const base = { ruleKey: "same_id_velocity", severity: "high", mode: "live", reason: "Two a day is already unusual." } as const;

describe("ruleProposalSchema", () => {
  it("takes the typed text of each parameter as numbers (the calling code as digits)", () => {
    expect(ruleProposalSchema.parse({ ...base, params: { windowHours: " 24", minTokens: "2", minBranches: "2" } }).params).toEqual({ windowHours: 24, minTokens: 2, minBranches: 2 });
    expect(ruleProposalSchema.parse({ ...base, ruleKey: "phone_abroad", params: { homeCallingCode: "233" } }).params).toEqual({ homeCallingCode: "233" });
  });

  it("puts each mistake on its own parameter's field, and ignores parameters the rule does not have", () => {
    const result = ruleProposalSchema.safeParse({ ...base, params: { windowHours: "", minTokens: "2.5", minBranches: "1", extra: "9" }, reason: "no" });
    expect(result.success).toBe(false);
    expect(collectIssues(result.error!).fieldErrors).toEqual({
      "params.windowHours": ["Enter a value."],
      "params.minTokens": ["Enter a whole number."],
      "params.minBranches": ["Between 2 and 100."],
      reason: ["Say why the rule changes (a sentence)."],
    });
  });

  it("wants opening before closing, and a share between 0 and 1", () => {
    const result = ruleProposalSchema.safeParse({ ...base, ruleKey: "teller_failure_rate", params: { minIdNumbers: "10", minFailedShare: "80", openHour: "17", closeHour: "8" } });
    expect(collectIssues(result.error!).fieldErrors).toEqual({ "params.minFailedShare": ["Between 0 and 1."], "params.closeHour": ["Closing comes after opening."] });
  });

  it("accepts every rule's shipped parameters, and describes exactly those parameters", () => {
    for (const ruleKey of RULE_KEYS) {
      const params = Object.fromEntries(Object.entries(ruleOf(ruleKey).defaults).map(([name, value]) => [name, String(value)]));
      expect(Object.keys(ruleOf(ruleKey).params).sort(), ruleKey).toEqual(Object.keys(params).sort());
      expect(ruleProposalSchema.parse({ ...base, ruleKey, params }).params, ruleKey).toEqual(ruleOf(ruleKey).defaults);
    }
  });
});

describe("parseBacktestRange", () => {
  const now = new Date("2026-03-16T10:00:00Z");

  it("offers the last 14 days and runs nothing until asked", () => {
    expect(parseBacktestRange({}, now)).toMatchObject({ from: "2026-03-03", to: "2026-03-16", run: false });
  });

  it("reads both days as included, in UTC", () => {
    expect(parseBacktestRange({ from: "2026-03-02", to: "2026-03-15" }, now)).toEqual({
      from: "2026-03-02",
      to: "2026-03-15",
      start: new Date("2026-03-02T00:00:00Z"),
      end: new Date("2026-03-16T00:00:00Z"),
      run: true,
    });
  });

  it("refuses a reversed, malformed or too long range with a reason", () => {
    expect(parseBacktestRange({ from: "2026-03-10", to: "2026-03-01" }, now)).toMatchObject({ run: false, error: "The last day comes after the first." });
    expect(parseBacktestRange({ from: "yesterday", to: "2026-03-01" }, now)).toMatchObject({ run: false, error: "Give both days as dates." });
    expect(parseBacktestRange({ from: "2025-01-01", to: "2026-03-01" }, now)).toMatchObject({ run: false, error: `A backtest covers at most ${maxBacktestDays} days.` });
  });

  it("refuses a day before 2000, after 2100, or that does not exist, as the API's since", () => {
    const outOfRange = "Give days that exist, from 2000 to 2100.";
    for (const [from, to] of [
      ["0000-01-01", "0000-01-14"],
      ["1999-12-31", "2000-01-02"],
      ["2100-12-31", "2101-01-01"],
      ["9999-12-01", "9999-12-31"],
      ["2026-02-28", "2026-02-31"],
      ["2026-13-01", "2026-13-02"],
    ]) {
      expect(parseBacktestRange({ from, to }, now), `${from} – ${to}`).toMatchObject({ run: false, error: outOfRange, from: "2026-03-03", to: "2026-03-16" });
    }
    expect(parseBacktestRange({ from: "2000-01-01", to: "2000-01-14" }, now)).toMatchObject({ run: true, start: new Date("2000-01-01T00:00:00Z") });
    expect(parseBacktestRange({ from: "2100-12-18", to: "2100-12-31" }, now)).toMatchObject({ run: true, end: new Date("2101-01-01T00:00:00Z") });
  });
});
