import { describe, expect, it } from "vitest";
import { regexes } from "zod/v4/core";
import { cleanPastedText, hasForeignDigits } from "./pasted-text";
import { normaliseOptionalEmail, normalisePurpose, normaliseReference, emailPattern, textMessages } from "./text-fields";

describe("cleanPastedText", () => {
  it("normalises pasted spaces, dashes and invisible characters", () => {
    expect(cleanPastedText("\u00a0 a\u2013b\u200bc\t d \u202f")).toBe("a-bc d");
  });
  it("finds digits from other scripts", () => {
    expect(hasForeignDigits("123")).toBe(false);
    expect(hasForeignDigits("12٣")).toBe(true);
    expect(hasForeignDigits("１")).toBe(true);
  });
});

describe("reference", () => {
  it("stores a phone-like reference in the provider's local form", () => {
    expect(normaliseReference("+233 24 123 4567")).toEqual({ ok: true, value: "0241234567" });
  });
  it("keeps any other text as typed, trimmed", () => {
    expect(normaliseReference("  ACC-00123  ")).toEqual({ ok: true, value: "ACC-00123" });
    expect(normaliseReference("12345")).toEqual({ ok: true, value: "12345" });
  });
  it("refuses empty, over-long, control characters and foreign digits", () => {
    expect(normaliseReference(" ")).toEqual({ ok: false, message: textMessages.referenceRequired });
    expect(normaliseReference("x".repeat(65))).toEqual({ ok: false, message: textMessages.referenceTooLong });
    expect(normaliseReference("abc\u0007")).toEqual({ ok: false, message: textMessages.unprintable });
    expect(normaliseReference("٠٢٤١٢٣٤٥٦٧")).toEqual({ ok: false, message: textMessages.foreignDigits });
  });
});

describe("purpose", () => {
  it("is required on both forms (the bank's policy needs one)", () => {
    expect(normalisePurpose("")).toEqual({ ok: false, message: textMessages.purposeRequired });
    expect(normalisePurpose(" Account opening ")).toEqual({ ok: true, value: "Account opening" });
  });
  it("is trimmed and bounded", () => {
    expect(normalisePurpose(" KYC ")).toEqual({ ok: true, value: "KYC" });
    expect(normalisePurpose("").ok).toBe(false);
    expect(normalisePurpose("x".repeat(121)).ok).toBe(false);
  });
});

describe("e-mail", () => {
  it("treats empty as not given", () => {
    expect(normaliseOptionalEmail("")).toEqual({ ok: true, value: undefined });
    expect(normaliseOptionalEmail("   ")).toEqual({ ok: true, value: undefined });
    expect(normaliseOptionalEmail(undefined)).toEqual({ ok: true, value: undefined });
  });
  it("accepts a plausible address and refuses the rest", () => {
    expect(normaliseOptionalEmail(" ama@example.com ")).toEqual({ ok: true, value: "ama@example.com" });
    expect(normaliseOptionalEmail("ama@")).toEqual({ ok: false, message: textMessages.emailInvalid });
    expect(normaliseOptionalEmail("ama example.com")).toEqual({ ok: false, message: textMessages.emailInvalid });
    expect(normaliseOptionalEmail(`${"a".repeat(250)}@x.com`)).toEqual({ ok: false, message: textMessages.emailTooLong });
  });
});

describe("emailPattern", () => {
  // The browser checks addresses without zod; the server's answer must be the same.
  it("is zod's own e-mail pattern", () => {
    expect(emailPattern.source).toBe(regexes.email.source);
    expect(emailPattern.flags).toBe(regexes.email.flags);
  });
});
