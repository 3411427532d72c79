import { describe, expect, it } from "vitest";
import { signOffRefusal, signOffRefusals } from "./sign-off";

describe("which days a branch may sign off", () => {
  // 2026-11-24 14:00 in Accra (GMT all year).
  const now = new Date("2026-11-24T14:00:00Z");
  const firstTokenAt = new Date("2026-03-02T08:15:00Z");

  it("refuses a day that has not ended: today, tomorrow, 2099-12-31", () => {
    for (const day of ["2026-11-24", "2026-11-25", "2099-12-31"]) expect(signOffRefusal(day, { now, firstTokenAt })).toBe(signOffRefusals.notEnded);
  });

  it("allows yesterday from the first instant of today, on the bank's clock", () => {
    expect(signOffRefusal("2026-11-23", { now, firstTokenAt })).toBeNull();
    expect(signOffRefusal("2026-11-23", { now: new Date("2026-11-24T00:00:00Z"), firstTokenAt })).toBeNull();
    expect(signOffRefusal("2026-11-23", { now: new Date("2026-11-23T23:59:59.999Z"), firstTokenAt })).toBe(signOffRefusals.notEnded);
  });

  it("refuses a day before the branch's first token, and every day of a branch without one", () => {
    expect(signOffRefusal("2026-03-02", { now, firstTokenAt })).toBeNull();
    expect(signOffRefusal("2026-03-01", { now, firstTokenAt })).toBe(signOffRefusals.beforeFirstToken);
    expect(signOffRefusal("2000-01-01", { now, firstTokenAt })).toBe(signOffRefusals.beforeFirstToken);
    expect(signOffRefusal("2026-11-23", { now, firstTokenAt: null })).toBe(signOffRefusals.noTokens);
  });
});
