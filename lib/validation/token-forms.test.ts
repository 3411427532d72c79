import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { FormCheck } from "./form-check";
import { checkFingerprintTokenForm, checkRemoteTokenForm } from "./token-form-rules";
import { ID_TYPES } from "@/lib/domain/id-types";
import { deliveryMessage, emptyRemoteTokenForm, idNumberOf, idTypeMessage, type RemoteTokenFormInput } from "./token-form-shape";
import { fingerprintTokenActionSchema, fingerprintTokenFormSchema, remoteTokenActionSchema, remoteTokenFormSchema } from "./token-forms";
import { mapServiceFieldErrors, toFingerprintTokenRequest, toRemoteTokenRequest } from "./remote-token-payload";
import { remoteSubmissionOptions } from "@/test/kit/submission-options";

const common = {
  phoneNumber: "+233 24 123 4567",
  referenceId: "",
  purpose: "Account opening",
  email: "",
  ...remoteSubmissionOptions,
};

function fieldErrorsOf(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  return result.success ? {} : (z.flattenError(result.error).fieldErrors as Record<string, string[]>);
}

describe("remoteTokenFormSchema", () => {
  it("normalises every field of the chosen type", () => {
    const parsed = remoteTokenFormSchema.parse({ ...common, referenceId: "024 123 4567", idType: "GHANA_CARD", ghanaCardNumber: "gha 123456789 0" });
    expect(parsed).toEqual({
      ...common,
      idType: "GHANA_CARD",
      ghanaCardNumber: "GHA-123456789-0",
      phoneNumber: "0241234567",
      referenceId: "0241234567",
      email: undefined,
    });
  });

  it("reports every bad field at once", () => {
    const errors = fieldErrorsOf(remoteTokenFormSchema, {
      ...emptyRemoteTokenForm("DRIVER_LICENCE"),
      driverLicenceNumber: "",
      dateOfBirth: "2099-01-01",
      phoneNumber: "123",
      email: "nope",
    });
    expect(Object.keys(errors).sort()).toEqual(["consentAttested", "consentWordingVersion", "dateOfBirth", "driverLicenceNumber", "email", "phoneNumber", "purpose", "referenceId"]);
  });

  it("drops fields of another ID type", () => {
    const parsed = remoteTokenFormSchema.parse({
      ...common,
      referenceId: "ref",
      idType: "VOTER",
      voterId: "1234567890",
      ghanaCardNumber: "GHA-123456789-0",
    } as RemoteTokenFormInput);
    expect(parsed).not.toHaveProperty("ghanaCardNumber");
  });

  it("refuses a link that goes nowhere", () => {
    const errors = fieldErrorsOf(remoteTokenFormSchema, { ...common, referenceId: "r", idType: "PASSPORT", passportNumber: "G1234567", sendSms: false });
    expect(errors).toEqual({ sendSms: [deliveryMessage] });
    expect(remoteTokenFormSchema.safeParse({ ...common, referenceId: "r", idType: "PASSPORT", passportNumber: "G1234567", sendSms: false, email: "a@b.co" }).success).toBe(true);
  });

  it("refuses an unknown ID type, by name", () => {
    expect(fieldErrorsOf(remoteTokenFormSchema, { ...common, idType: "NHIS" })).toEqual({ idType: [idTypeMessage] });
  });

  it("gives the action schema the same field errors plus the key's", () => {
    const input = { ...common, referenceId: "", idType: "VOTER", voterId: "x" };
    const formErrors = fieldErrorsOf(remoteTokenFormSchema, input);
    const actionErrors = fieldErrorsOf(remoteTokenActionSchema, { ...input, idempotencyKey: "not-a-uuid" });
    expect(actionErrors).toEqual({ ...formErrors, idempotencyKey: [expect.any(String)] });
  });
});

const consent = { consentAttested: true, consentWordingVersion: 1 };

describe("consent (ADR 0023)", () => {
  it("is required on both forms, with the wording version read out", () => {
    const base = { ghanaCardNumber: "GHA-123456789-0", referenceId: "r", purpose: "KYC refresh" };
    expect(Object.keys(fieldErrorsOf(fingerprintTokenFormSchema, { ...base, consentAttested: false, consentWordingVersion: 1 }))).toEqual(["consentAttested"]);
    expect(Object.keys(fieldErrorsOf(fingerprintTokenFormSchema, { ...base, consentAttested: true, consentWordingVersion: 0 }))).toEqual(["consentWordingVersion"]);
    expect(Object.keys(fieldErrorsOf(remoteTokenFormSchema, { ...common, referenceId: "r", idType: "VOTER", voterId: "1234567890", consentAttested: false }))).toEqual([
      "consentAttested",
    ]);
  });
});

describe("fingerprintTokenFormSchema", () => {
  it("normalises, and requires a purpose (the bank's policy is per purpose)", () => {
    expect(fingerprintTokenFormSchema.parse({ ghanaCardNumber: "1234567890", referenceId: "0241234567", purpose: " KYC refresh ", ...consent })).toEqual({
      ghanaCardNumber: "GHA-123456789-0",
      referenceId: "0241234567",
      purpose: "KYC refresh",
      ...consent,
    });
    expect(fingerprintTokenFormSchema.safeParse({ ghanaCardNumber: "1234567890", referenceId: "0241234567", purpose: " " }).success).toBe(false);
  });

  it("the action schema defaults allowDuplicate to false", () => {
    const parsed = fingerprintTokenActionSchema.parse({
      ghanaCardNumber: "GHA-123456789-0",
      referenceId: "r",
      purpose: "KYC refresh",
      ...consent,
      idempotencyKey: "1b4e28ba-2fa1-41d2-883f-0016d3cca427",
    });
    expect(parsed.allowDuplicate).toBe(false);
  });
});

describe("idNumberOf", () => {
  it("finds the ID number of each form", () => {
    const dl = remoteTokenFormSchema.parse({ ...common, referenceId: "r", idType: "DRIVER_LICENCE", driverLicenceNumber: "dl-1234", dateOfBirth: "1990-01-01" });
    expect(idNumberOf(dl)).toBe("DL-1234");
    expect(idNumberOf(fingerprintTokenFormSchema.parse({ ghanaCardNumber: "GHA-123456789-0", referenceId: "r", purpose: "KYC refresh", ...consent }))).toBe("GHA-123456789-0");
  });
});

describe("toRemoteTokenRequest", () => {
  const parse = (input: object) => remoteTokenFormSchema.parse({ ...common, referenceId: "0241234567", ...input });

  it("sends exactly the Ghana Card fields", () => {
    expect(toRemoteTokenRequest(parse({ idType: "GHANA_CARD", ghanaCardNumber: "GHA-123456789-0" }))).toEqual({
      id_type: "GHANA_CARD",
      ghanacardnumber: "GHA-123456789-0",
      verificationtype: "3",
      phonenumber: "0241234567",
      referenceid: "0241234567",
      purpose: "Account opening",
      send_token_to_client: "1",
      with_instructions: "1",
      require_location: "0",
      require_address_location: "0",
    });
  });

  it("sends driverid and dob for a driver licence", () => {
    const request = toRemoteTokenRequest(parse({ idType: "DRIVER_LICENCE", driverLicenceNumber: "DL1234", dateOfBirth: "1990-01-31" }));
    expect(request).toMatchObject({ id_type: "DRIVER_LICENCE", driverid: "DL1234", dob: "1990-01-31" });
    expect(Object.keys(request)).not.toContain("ghanacardnumber");
  });

  it("maps voter and passport numbers to their own fields", () => {
    expect(toRemoteTokenRequest(parse({ idType: "VOTER", voterId: "1234567890" }))).toMatchObject({ id_type: "VOTER", voterid: "1234567890" });
    expect(toRemoteTokenRequest(parse({ idType: "PASSPORT", passportNumber: "G1234567" }))).toMatchObject({ id_type: "PASSPORT", passportnumber: "G1234567" });
  });

  it("turns the options into the service's flags", () => {
    const request = toRemoteTokenRequest(
      parse({
        idType: "VOTER",
        voterId: "1234567890",
        email: "ama@example.com",
        sendSms: false,
        skipInstructions: true,
        captureLocation: true,
        captureHomeAddress: true,
        livenessOnly: true,
      }),
    );
    expect(request).toMatchObject({
      email: "ama@example.com",
      send_token_to_client: "0",
      with_instructions: "0",
      require_location: "1",
      require_address_location: "1",
      verification_mode_id: "7",
    });
  });

  it("omits verification_mode_id for full KYC and an empty e-mail", () => {
    const request = toRemoteTokenRequest(parse({ idType: "VOTER", voterId: "1234567890" }));
    expect(request).not.toHaveProperty("verification_mode_id");
    expect(request).not.toHaveProperty("email");
  });
});

describe("toFingerprintTokenRequest", () => {
  it("adds the teller's branch", () => {
    const values = fingerprintTokenFormSchema.parse({ ghanaCardNumber: "GHA-123456789-0", referenceId: "r", purpose: "KYC refresh", ...consent });
    expect(toFingerprintTokenRequest(values, "Kumasi – Adum")).toEqual({
      idNumber: "GHA-123456789-0",
      referenceId: "r",
      purpose: "KYC refresh",
      branchName: "Kumasi – Adum",
    });
  });
});

describe("mapServiceFieldErrors", () => {
  it("puts the service's field messages under the form's fields", () => {
    expect(
      mapServiceFieldErrors("remote", { ghanacardnumber: ["bad"], dob: ["future"], branch: ["odd"] }),
    ).toEqual({
      fieldErrors: { ghanaCardNumber: ["The service says: bad"], dateOfBirth: ["The service says: future"] },
      otherMessages: ["The service says: odd"],
    });
    expect(mapServiceFieldErrors("fingerprint", { id_number: ["x"] }).fieldErrors).toEqual({ ghanaCardNumber: ["The service says: x"] });
    expect(mapServiceFieldErrors("fingerprint", undefined)).toEqual({ fieldErrors: {}, otherMessages: [] });
  });
});

/**
 * The browser checks a form with the rules alone; the server parses it with zod schemas built from
 * the same rules (ADR 0034). Both must give the same answer for any input: the same values, or the
 * same message under the same fields.
 */
describe("the browser's check and the server's parse", () => {
  function serverAnswer(schema: z.ZodType, input: unknown): FormCheck<unknown> {
    const parsed = schema.safeParse(input);
    if (parsed.success) return { ok: true, values: parsed.data };
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>;
    return { ok: false, fieldErrors: Object.fromEntries(Object.entries(fieldErrors).map(([name, messages]) => [name, messages[0]!])) };
  }

  // Values a teller (or a tampered request) may put in a field: good, bad, empty, missing, the wrong type.
  const anyText = fc.oneof(
    fc.constantFrom("", " ", "gha 123456789 0", "1234567890", "GHA-1", "+233 24 123 4567", "024 123 4567", "0301234567", "+44 20 7946 0958"),
    fc.constantFrom("G1234567", "dl-1234", "DL/12-34", "1990-01-31", "2099-01-01", "1990-02-30", "ama@example.com", "ama@", "KYC refresh", "x".repeat(130)),
    fc.constantFrom("١٢٣٤٥٦٧٨٩٠", "a\u0000b", "\u200b0241234567"),
    fc.string({ maxLength: 20 }),
    fc.constant(undefined),
    fc.integer(),
    fc.boolean(),
  );
  const anyFlag = fc.oneof(fc.boolean(), fc.boolean(), fc.constant(undefined), fc.constant("true"));
  const anyVersion = fc.oneof(fc.constant(1), fc.constant(3), fc.constant(0), fc.double(), fc.constant("1"), fc.constant(undefined));

  it("agree on the fingerprint form", () => {
    fc.assert(
      fc.property(
        fc.record({ ghanaCardNumber: anyText, referenceId: anyText, purpose: anyText, consentAttested: anyFlag, consentWordingVersion: anyVersion }),
        (input) => {
          expect(checkFingerprintTokenForm(input)).toEqual(serverAnswer(fingerprintTokenFormSchema, input));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("agree on the remote form, for every ID type", () => {
    const option = anyFlag;
    fc.assert(
      fc.property(
        fc.record({
          idType: fc.oneof(fc.constantFrom(...ID_TYPES), fc.constantFrom(...ID_TYPES), fc.constant("NHIS"), fc.constant(undefined)),
          ghanaCardNumber: anyText,
          voterId: anyText,
          passportNumber: anyText,
          driverLicenceNumber: anyText,
          dateOfBirth: anyText,
          phoneNumber: anyText,
          referenceId: anyText,
          purpose: anyText,
          email: anyText,
          sendSms: option,
          skipInstructions: option,
          captureLocation: option,
          captureHomeAddress: option,
          livenessOnly: option,
          consentAttested: anyFlag,
          consentWordingVersion: anyVersion,
        }),
        (input) => {
          expect(checkRemoteTokenForm(input)).toEqual(serverAnswer(remoteTokenFormSchema, input));
        },
      ),
      { numRuns: 3_000 },
    );
    // 3 000 runs take ~3 s alone and twice that while npm test builds and type-checks beside it.
  }, 30_000);

  it("agree on a form a teller fills in well", () => {
    const filled = { ...common, referenceId: "024 123 4567", idType: "DRIVER_LICENCE", driverLicenceNumber: "dl-1234", dateOfBirth: "1990-01-31" };
    const check = checkRemoteTokenForm(filled);
    expect(check.ok).toBe(true);
    expect(check).toEqual(serverAnswer(remoteTokenFormSchema, filled));
  });
});
