import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ghanaMobileMetadataPath, ghanaOnlyMetadata } from "@/scripts/phone-metadata";
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

  it("is idempotent", () => {
    const once = normaliseGhanaMobile("+233 24 123 4567");
    expect(once.ok && normaliseGhanaMobile(once.value)).toEqual(once);
  });
});

describe("the Ghana-only phone metadata", () => {
  it("is the installed libphonenumber-js's Ghana entry (run `npx tsx scripts/phone-metadata.ts` after updating it)", () => {
    const committed = JSON.parse(readFileSync(ghanaMobileMetadataPath, "utf8"));
    expect(committed).toEqual(ghanaOnlyMetadata());
  });

  it("refuses a number with another country's code, typed in any of the usual ways", () => {
    for (const typed of ["+44 7911 123456", "0044 7911 123456", "+(44) 7911 123456", "+1-212-555-1234"]) {
      expect(normaliseGhanaMobile(typed)).toEqual({ ok: false, message: phoneMessages.foreign });
    }
  });
});
