import { describe, expect, it } from "vitest";
import { ID_TYPE_DESCRIPTORS, type IdNumberCheck } from "@/lib/domain/id-types";
import { ageOn, checkDateOfBirth, checkDocumentNumber, dateOfBirthMessages } from "./identity-documents";
import { foreignDigitsMessage } from "./pasted-text";

/** The rule of the type whose number field is `field`, as its descriptor gives it. */
function normaliseDocumentNumber(field: string, raw: string) {
  const check: IdNumberCheck | undefined = ID_TYPE_DESCRIPTORS.find((descriptor) => descriptor.number.field === field)?.number.check;
  if (check?.kind !== "document") throw new Error(`no document number field ${field}`);
  return checkDocumentNumber(check, raw);
}

describe("normaliseDocumentNumber", () => {
  it("upper-cases and removes spaces", () => {
    expect(normaliseDocumentNumber("voterId", " 1234 567 890 ")).toEqual({ ok: true, value: "1234567890" });
    expect(normaliseDocumentNumber("passportNumber", "g 123 4567")).toEqual({ ok: true, value: "G1234567" });
    expect(normaliseDocumentNumber("driverLicenceNumber", "fat-123456-78/9")).toEqual({ ok: true, value: "FAT-123456-78/9" });
  });

  it.each([
    ["voterId", "", "Enter the voter ID number."],
    ["voterId", "12-34", "A voter ID number is 5 to 20 letters and digits, as printed on the card."],
    ["passportNumber", "G12", "A passport number is 6 to 15 letters and digits, e.g. G1234567."],
    ["passportNumber", "G١٢٣٤٥٦٧", foreignDigitsMessage],
    ["driverLicenceNumber", "-ABC123", "A driver licence number is 4 to 30 letters, digits, dashes or slashes, as printed on the licence."],
    ["driverLicenceNumber", "   ", "Enter the driver licence number."],
  ] as const)("%s refuses %j", (kind, typed, message) => {
    expect(normaliseDocumentNumber(kind, typed)).toEqual({ ok: false, message });
  });
});

describe("checkDateOfBirth", () => {
  const today = "2026-11-22";

  it("accepts a real date giving a plausible age", () => {
    expect(checkDateOfBirth("1990-02-28", today)).toEqual({ ok: true, value: "1990-02-28" });
    expect(checkDateOfBirth("2000-02-29", today)).toEqual({ ok: true, value: "2000-02-29" });
    expect(checkDateOfBirth("2008-11-22", today)).toEqual({ ok: true, value: "2008-11-22" }); // 18 today
  });

  it.each([
    ["", dateOfBirthMessages.required],
    ["22/11/1990", dateOfBirthMessages.format],
    ["1990-2-3", dateOfBirthMessages.format],
    ["1990-02-30", dateOfBirthMessages.notADay],
    ["2023-02-29", dateOfBirthMessages.notADay],
    ["1990-13-01", dateOfBirthMessages.notADay],
    ["2026-11-22", dateOfBirthMessages.future],
    ["2030-01-01", dateOfBirthMessages.future],
    ["2008-11-23", dateOfBirthMessages.tooYoung],
    ["1900-01-01", dateOfBirthMessages.tooOld],
    ["١٩٩٠-٠١-٠١", dateOfBirthMessages.foreignDigits],
  ])("refuses %j", (typed, message) => {
    expect(checkDateOfBirth(typed, today)).toEqual({ ok: false, message });
  });

  it("counts whole years", () => {
    expect(ageOn("2000-11-23", "2026-11-22")).toBe(25);
    expect(ageOn("2000-11-22", "2026-11-22")).toBe(26);
  });
});
