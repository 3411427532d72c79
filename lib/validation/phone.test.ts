import { readFileSync } from "node:fs";
import fc from "fast-check";
import { parsePhoneNumberFromString, type MetadataJson } from "libphonenumber-js/core";
import mobileMetadata from "libphonenumber-js/metadata.mobile.json";
import { describe, expect, it } from "vitest";
import { ghanaMobilePlan, ghanaMobilePlanPath } from "@/scripts/phone-metadata";
import { cleanPastedText } from "./pasted-text";
import { normaliseGhanaMobile, phoneMessages } from "./phone";

describe("normaliseGhanaMobile", () => {
  it.each([
    ["024 123 4567", "0241234567"],
    ["+233 24 123 4567", "0241234567"],
    ["233241234567", "0241234567"],
    ["0241234567", "0241234567"],
    ["+233 (0) 24 123 4567", "0241234567"],
    ["024-123-4567", "0241234567"],
    ["00233241234567", "0241234567"],
    ["24 123 4567", "0241234567"],
    ["0541504140", "0541504140"],
    ["020 000 0000", "0200000000"],
    ["059\u00a0123\u00a04567", "0591234567"],
  ])("accepts %j as %j", (typed, local) => {
    expect(normaliseGhanaMobile(typed)).toEqual({ ok: true, value: local });
  });

  it.each([
    ["", phoneMessages.required],
    ["024 123 456", phoneMessages.invalid],
    ["0241234567890", phoneMessages.invalid],
    ["0302123456", phoneMessages.invalid], // a landline cannot receive the SMS
    ["abc", phoneMessages.invalid],
    ["+44 7911 123456", phoneMessages.foreign],
    ["+1 212 555 1234", phoneMessages.foreign],
    ["0241234567 ext 5", phoneMessages.extension],
    ["٠٢٤١٢٣٤٥٦٧", phoneMessages.foreignDigits],
    ["０２４１２３４５６７", phoneMessages.foreignDigits],
  ])("refuses %j", (typed, message) => {
    expect(normaliseGhanaMobile(typed)).toEqual({ ok: false, message });
  });

  it("refuses a text longer than anyone types a number, as the library does, whatever it is made of", () => {
    const typedAtLength = (length: number) => `024 123 4567${"-".repeat(length - 12)}`;
    expect(normaliseGhanaMobile(typedAtLength(250))).toEqual({ ok: true, value: "0241234567" });
    expect(libraryVerdict(typedAtLength(251))).toBeUndefined();
    expect(normaliseGhanaMobile(typedAtLength(251))).toEqual({ ok: false, message: phoneMessages.invalid });
    // A megabyte posted to the server action, shaped so that a pattern trying every position would
    // take minutes: answered at once.
    expect(normaliseGhanaMobile(`1${"a ".repeat(500_000)}1`)).toEqual({ ok: false, message: phoneMessages.invalid });
  });

  it("is idempotent", () => {
    const once = normaliseGhanaMobile("+233 24 123 4567");
    expect(once.ok && normaliseGhanaMobile(once.value)).toEqual(once);
  });
});

describe("the Ghana mobile plan", () => {
  it("is the installed libphonenumber-js's (run `npx tsx scripts/phone-metadata.ts` after updating it)", () => {
    expect(JSON.parse(readFileSync(ghanaMobilePlanPath, "utf8"))).toEqual(ghanaMobilePlan());
  });

  it("refuses a number with another country's code, typed in any of the usual ways", () => {
    for (const typed of ["+44 7911 123456", "0044 7911 123456", "+(44) 7911 123456", "+1-212-555-1234", "Tel: +44 7911 123456"]) {
      expect(normaliseGhanaMobile(typed)).toEqual({ ok: false, message: phoneMessages.foreign });
    }
  });
});

/**
 * The oracle: libphonenumber-js's own parser on Ghana's mobile metadata, as the phone field
 * checked before it had a parser of its own (ADR 0057). Its verdict on a number is the one that
 * counts; the messages are ours.
 */
const ghanaOnly = { ...(mobileMetadata as unknown as MetadataJson), country_calling_codes: { "233": ["GH"] } } as MetadataJson;
function libraryVerdict(typed: string): string | undefined {
  const parsed = parsePhoneNumberFromString(cleanPastedText(typed), { defaultCountry: "GH" }, ghanaOnly);
  if (!parsed || parsed.ext || parsed.countryCallingCode !== "233" || !parsed.isValid()) return undefined;
  return `0${parsed.nationalNumber}`;
}

/** A Ghana mobile number's 9 national digits (valid or not) and the ways people type one. */
const nationalDigits = fc.oneof(
  fc.tuple(fc.constantFrom("20", "23", "24", "25", "26", "27", "28", "29", "50", "53", "54", "55", "56", "57", "59", "30", "32", "80"), fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 6, maxLength: 8 })).map(([prefix, rest]) => prefix + rest),
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 5, maxLength: 12 }),
);
const typedNumber = fc
  .record({
    label: fc.constantFrom("", "", "", "Tel: ", "mobile "),
    prefix: fc.constantFrom("", "0", "0", "+233", "+233 ", "00233 ", "233", "+233 (0) ", "+233 0", "0 "),
    digits: nationalDigits,
    separator: fc.constantFrom("", " ", "-", ".", "\u00a0"),
    groups: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
    suffix: fc.constantFrom("", "", "", " (mobile)", " ext 5", " x12", ";ext=3", " #7"),
  })
  .map(({ label, prefix, digits, separator, groups, suffix }) => {
    const parts: string[] = [];
    let at = 0;
    for (const size of groups) {
      parts.push(digits.slice(at, at + size));
      at += size;
    }
    parts.push(digits.slice(at));
    return `${label}${prefix}${parts.filter(Boolean).join(separator)}${suffix}`;
  });

describe("normaliseGhanaMobile against libphonenumber-js", () => {
  it("gives the library's verdict on every way of typing a number", () => {
    fc.assert(
      fc.property(typedNumber, (typed) => {
        const ours = normaliseGhanaMobile(typed);
        expect(ours.ok ? ours.value : undefined, typed).toBe(libraryVerdict(typed));
      }),
      { numRuns: 5_000 },
    );
  });

  it("says why a refused number is refused: an extension, another country, or not a mobile number", () => {
    expect(normaliseGhanaMobile("024 123 4567 x12")).toEqual({ ok: false, message: phoneMessages.extension });
    expect(normaliseGhanaMobile("+233 24 123 4567;ext=3")).toEqual({ ok: false, message: phoneMessages.extension });
    expect(normaliseGhanaMobile("Tel: 024 123 4567 (mobile)")).toEqual({ ok: true, value: "0241234567" });
    expect(normaliseGhanaMobile("024 123 45a7")).toEqual({ ok: false, message: phoneMessages.invalid });
  });
});
