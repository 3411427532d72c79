import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  deliveryMessage,
  emptyRemoteTokenForm,
  fingerprintTokenActionSchema,
  fingerprintTokenFormSchema,
  idNumberOf,
  remoteTokenActionSchema,
  remoteTokenFormSchema,
  type RemoteTokenFormInput,
} from "./token-forms";
import { mapServiceFieldErrors, toFingerprintTokenRequest, toRemoteTokenRequest } from "./remote-token-payload";

const common = {
  phoneNumber: "+233 24 123 4567",
  referenceId: "",
  purpose: "Account opening",
  email: "",
  sendSms: true,
  skipInstructions: false,
  captureLocation: false,
  captureHomeAddress: false,
  livenessOnly: false,
  consentAttested: true,
  consentWordingVersion: 1,
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

  it("refuses an unknown ID type", () => {
    expect(remoteTokenFormSchema.safeParse({ ...common, idType: "NHIS" }).success).toBe(false);
  });

  it("gives the action schema the same field errors plus the key's", () => {
    const input = { ...common, referenceId: "", idType: "VOTER", voterId: "x" };
    const formErrors = fieldErrorsOf(remoteTokenFormSchema, input);
    const actionErrors = fieldErrorsOf(remoteTokenActionSchema, { ...input, idempotencyKey: "not-a-uuid" });
    expect(actionErrors).toEqual({ ...formErrors, idempotencyKey: [expect.any(String)] });
  });
});

const consent = { consentAttested: true, consentWordingVersion: 1 };

describe("consent (issue 14)", () => {
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
