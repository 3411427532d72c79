import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { caretAfterFormatting, formatGhanaCardInput, ghanaCardMessages, normaliseGhanaCardNumber } from "./ghana-card";

describe("normaliseGhanaCardNumber", () => {
  it.each([
    ["GHA-123456789-0"],
    ["gha-123456789-0"],
    ["gha 123456789 0"],
    ["GHA1234567890"],
    ["  GHA-123456789-0  "],
    ["GHA 123 456 789 0"],
    ["1234567890"],
    ["123456789-0"],
    ["GHA\u2011123456789\u20110"], // non-breaking hyphens
    ["GHA\u00a0123456789\u00a00"], // no-break spaces
    ["GHA-1234\u200b56789-0"], // zero-width space
    ["gha_123456789_0"],
    ["GHA.123456789.0"],
  ])("accepts %j", (typed) => {
    expect(normaliseGhanaCardNumber(typed)).toEqual({ ok: true, value: "GHA-123456789-0" });
  });

  it.each([
    ["", ghanaCardMessages.required],
    ["   ", ghanaCardMessages.required],
    ["GHA-12345678-0", ghanaCardMessages.format],
    ["GHA-1234567890-0", ghanaCardMessages.format],
    ["GHB-123456789-0", ghanaCardMessages.format],
    ["GHA-12345678O-0", ghanaCardMessages.format],
    ["123456789", ghanaCardMessages.format],
    ["GHA-١٢٣٤٥٦٧٨٩-٠", ghanaCardMessages.foreignDigits],
    ["GHA-１２３４５６７８９-０", ghanaCardMessages.foreignDigits],
    ["GHA-12345678९-0", ghanaCardMessages.foreignDigits],
  ])("refuses %j with a message saying why", (typed, message) => {
    expect(normaliseGhanaCardNumber(typed)).toEqual({ ok: false, message });
  });

  it("is idempotent for every accepted input", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^(gha|GHA)?[ -]?\d{9}[ -]?\d$/), (typed) => {
        const first = normaliseGhanaCardNumber(typed);
        expect(first.ok).toBe(true);
        if (first.ok) expect(normaliseGhanaCardNumber(first.value)).toEqual(first);
      }),
    );
  });
});

describe("formatGhanaCardInput", () => {
  it.each([
    ["", ""],
    ["g", "G"],
    ["gh", "GH"],
    ["gha", "GHA"],
    ["gha1", "GHA-1"],
    ["GHA-12345", "GHA-12345"],
    ["gha123456789", "GHA-123456789"],
    ["gha1234567890", "GHA-123456789-0"],
    ["GHA-123456789-0", "GHA-123456789-0"],
    ["gha 123456789 0", "GHA-123456789-0"],
    ["1", "GHA-1"],
    ["1234567890", "GHA-123456789-0"],
    ["GHA-123456789-", "GHA-123456789"],
    ["XYZ12", "XYZ12"],
  ])("shows %j as %j", (typed, shown) => {
    expect(formatGhanaCardInput(typed)).toBe(shown);
  });

  it("keeps extra characters visible so the validator can name the problem", () => {
    expect(formatGhanaCardInput("GHA-123456789-01")).toBe("GHA-123456789-01");
    expect(normaliseGhanaCardNumber(formatGhanaCardInput("GHA-123456789-01")).ok).toBe(false);
  });

  it("is stable: formatting a formatted value changes nothing", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."gha GHA-0123456789 x".split("")), maxLength: 20 }), (typed) => {
        const once = formatGhanaCardInput(typed);
        expect(formatGhanaCardInput(once)).toBe(once);
      }),
    );
  });

  it("puts the caret back after the same characters", () => {
    // Typing "5" in the middle of "GHA-1234": raw "GHA-12534", caret after the 5 (index 7).
    const raw = "GHA-12534";
    const formatted = formatGhanaCardInput(raw);
    expect(caretAfterFormatting(raw, 7, formatted)).toBe(7);
    // Typing the 10th digit: the dash appears and the caret moves past it.
    expect(caretAfterFormatting("GHA-1234567890", 14, "GHA-123456789-0")).toBe(15);
    // Typing the first digit: the prefix appears before it.
    expect(caretAfterFormatting("1", 1, "GHA-1")).toBe(5);
  });
});
