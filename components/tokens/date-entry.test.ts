import { describe, expect, it } from "vitest";
import { checkDateOfBirth } from "@/lib/validation/identity-documents";
import { dayMonthYearToIso, isoToDayMonthYear, maskDayMonthYear } from "./date-entry";

/** Types `text` one character at a time, as the box re-masks after each keystroke. */
function typeInto(text: string, start = ""): string {
  let shown = start;
  for (const char of text) shown = maskDayMonthYear(shown + char);
  return shown;
}

describe("DD/MM/YYYY date entry", () => {
  it("groups digits as they are typed, adding the slash when the next part starts", () => {
    expect(typeInto("0")).toBe("0");
    expect(typeInto("07")).toBe("07");
    expect(typeInto("070")).toBe("07/0");
    expect(typeInto("0703")).toBe("07/03");
    expect(typeInto("07031")).toBe("07/03/1");
    expect(typeInto("07031990")).toBe("07/03/1990");
    expect(typeInto("070319901")).toBe("07/03/1990");
  });

  it("lets Backspace remove the slash instead of trapping it", () => {
    expect(maskDayMonthYear("07/")).toBe("07/");
    expect(maskDayMonthYear("07")).toBe("07");
    expect(maskDayMonthYear("07/03/")).toBe("07/03/");
  });

  it("pads a short day or month ended by a typed separator", () => {
    expect(typeInto("7/3/1990")).toBe("07/03/1990");
    expect(typeInto("7.3.1990")).toBe("07/03/1990");
    expect(typeInto("7 3 1990")).toBe("07/03/1990");
    expect(typeInto("//7")).toBe("7");
  });

  it("turns a pasted ISO date round and ignores letters", () => {
    expect(maskDayMonthYear("1990-03-07")).toBe("07/03/1990");
    expect(maskDayMonthYear("1990-3-7")).toBe("07/03/1990");
    expect(maskDayMonthYear("07a/03b/1990")).toBe("07/03/1990");
    expect(maskDayMonthYear(" 07/03/1990 ")).toBe("07/03/1990");
  });

  it("reads the day first, whatever an en-US browser would assume", () => {
    expect(dayMonthYearToIso("03/07/1990")).toBe("1990-07-03");
    expect(dayMonthYearToIso("12/01/1985")).toBe("1985-01-12");
  });

  it("gives the server ISO only when complete, and the schema says what is wrong otherwise", () => {
    const today = "2026-11-24";
    expect(dayMonthYearToIso("07/03/1990")).toBe("1990-03-07");
    expect(checkDateOfBirth(dayMonthYearToIso("07/03/1990"), today)).toEqual({ ok: true, value: "1990-03-07" });
    expect(dayMonthYearToIso("07/03/19")).toBe("07/03/19");
    expect(checkDateOfBirth(dayMonthYearToIso("07/03/19"), today).ok).toBe(false);
    expect(checkDateOfBirth(dayMonthYearToIso("31/02/1990"), today)).toMatchObject({ ok: false, message: expect.stringContaining("does not exist") });
    expect(dayMonthYearToIso("")).toBe("");
  });

  it("shows a pre-filled ISO date day first", () => {
    expect(isoToDayMonthYear("1990-03-07")).toBe("07/03/1990");
    expect(isoToDayMonthYear("")).toBe("");
    expect(isoToDayMonthYear("07/03/19")).toBe("07/03/19");
  });
});
