import { describe, expect, it } from "vitest";
import { describeAuditEvent } from "@/lib/review/sentences";
import { checkFingerprintTokenForm, checkRemoteTokenForm } from "@/lib/validation/token-form-rules";
import { emptyRemoteTokenForm } from "@/lib/validation/token-form-shape";
import { maskDateOfBirth } from "./restart-fields";

/** The browser's side of "New token for this customer" (ADR 0038): kept fields count as filled. */

const remote = { ...emptyRemoteTokenForm("GHANA_CARD"), purpose: "KYC refresh", consentAttested: true, consentWordingVersion: 1 };

describe("the form rules with fields kept from an earlier token", () => {
  it("take a kept field as filled and leave it out of the values the browser sends", () => {
    expect(checkRemoteTokenForm(remote)).toMatchObject({ ok: false, fieldErrors: { ghanaCardNumber: expect.any(String), phoneNumber: expect.any(String), referenceId: expect.any(String) } });
    const checked = checkRemoteTokenForm(remote, ["ghanaCardNumber", "phoneNumber", "referenceId"]);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.values).not.toHaveProperty("ghanaCardNumber");
    expect(checked.values).not.toHaveProperty("phoneNumber");
    expect(checked.values).toMatchObject({ idType: "GHANA_CARD", purpose: "KYC refresh", sendSms: true });

    const fingerprint = { ghanaCardNumber: "", referenceId: "", purpose: "Account opening", consentAttested: true, consentWordingVersion: 1 };
    expect(checkFingerprintTokenForm(fingerprint).ok).toBe(false);
    expect(checkFingerprintTokenForm(fingerprint, ["ghanaCardNumber", "referenceId"])).toEqual({
      ok: true,
      values: { purpose: "Account opening", consentAttested: true, consentWordingVersion: 1 },
    });
  });

  it("count a kept e-mail as where the link goes, and still check every field typed", () => {
    const noSms = { ...remote, ghanaCardNumber: "GHA-123456789-0", phoneNumber: "0241234567", referenceId: "0241234567", sendSms: false };
    expect(checkRemoteTokenForm(noSms)).toMatchObject({ ok: false, fieldErrors: { sendSms: expect.any(String) } });
    expect(checkRemoteTokenForm(noSms, ["email"]).ok).toBe(true);
    expect(checkRemoteTokenForm({ ...noSms, phoneNumber: "12" }, ["email"])).toMatchObject({ ok: false, fieldErrors: { phoneNumber: expect.any(String) } });
  });
});

describe("what the page shows of a kept date of birth", () => {
  it("is the year only", () => {
    expect(maskDateOfBirth("1988-03-14")).toBe("••/••/1988");
    expect(maskDateOfBirth("14/03/1988")).toBe("••/••/••••");
  });
});

describe("the audit trail's words for a restart", () => {
  const base = { actorName: "Kwame Asante", actorLabel: "teller.kumasi", subjectType: "token_request", subjectId: "id-1", subjectToken: "EXPD12", subjectStaffName: null };
  it("names the teller, the earlier token and the fields kept, never a value", () => {
    expect(describeAuditEvent({ ...base, action: "token.restart_values_used", details: { use: "form", fields: ["ghanaCardNumber", "phoneNumber"] } })).toEqual({
      text: "Kwame Asante opened a new token form with the customer's details from token EXPD12",
      detail: "Kept: Ghana Card number, mobile number.",
      tone: "info",
      tokenRequestId: "id-1",
    });
    expect(describeAuditEvent({ ...base, action: "token.restart_values_used", details: { use: "issue", fields: ["email"] } }).text).toBe(
      "Kwame Asante issued a new token with the customer's details from token EXPD12",
    );
    expect(describeAuditEvent({ ...base, action: "token.restart_values_refused", details: { use: "form", reason: "not the issuer" } })).toMatchObject({
      text: "Kwame Asante tried to start a new token from token EXPD12, issued by another teller: refused",
      tone: "warning",
    });
  });
});
