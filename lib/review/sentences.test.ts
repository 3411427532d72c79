import { describe, expect, it } from "vitest";
import { failureReasonOf, outcomeUnknownLinkSentStep, outcomeUnknownNoLinkStep } from "./failure-reason";
import { describeAuditEvent, describeTokenEvent, type AuditSentenceRow } from "./sentences";

const context = { tellerName: "Ama Mensah", token: "X7Q3BMSA", kind: "remote" as const, isLinkSent: true, namesByUsername: { "teller.accra": "Ama Mensah" } };
const smsSent = { kind: "remote" as const, sendSms: true, hasEmail: false, token: null };
const rawCodes = /state_changed|UPSTREAM_|token\.issue|issue\.|_/;

describe("token history sentences", () => {
  it("names the teller and the token, and quotes the service's failure text", () => {
    expect(describeTokenEvent({ type: "issue.issued", details: { isSmsSent: true } }, context)).toMatchObject({ text: "Ama Mensah issued token X7Q3BMSA", tone: "info" });
    expect(describeTokenEvent({ type: "state_changed", details: { from: "in_progress", to: "failed", error: "Verification Unsuccesful" } }, context).text).toBe(
      "The service reported Failed: Verification Unsuccesful",
    );
    expect(describeTokenEvent({ type: "state_changed", details: { to: "successful", transactionNumber: "TX-1" } }, context).text).toBe("The service reported Successful: transaction TX-1");
    expect(describeTokenEvent({ type: "issue.attached_from_sms", details: { attachedBy: "teller.accra" } }, context).text).toBe("Ama Mensah entered token X7Q3BMSA from the customer's SMS");
  });

  it("reads the watcher's events (watch.*) like the others", () => {
    expect(describeTokenEvent({ type: "watch.state_changed", details: { from: "in_progress", to: "failed", error: "Verification Unsuccesful" } }, context).text).toBe(
      "The service reported Failed: Verification Unsuccesful",
    );
    expect(describeTokenEvent({ type: "watch.service_unreachable", details: { code: "UPSTREAM_TIMEOUT" } }, context).text).toBe("The verification service stopped answering");
  });

  it("never shows a raw code", () => {
    const events = [
      { type: "issue.requested", details: {} },
      { type: "issue.outcome_unknown", details: { errorCode: "UPSTREAM_TIMEOUT" } },
      { type: "issue.rejected", details: { errorCode: "UPSTREAM_REJECTED" } },
      { type: "service_unreachable", details: { code: "UPSTREAM_NETWORK" } },
      { type: "state_changed", details: { to: "expired" } },
      { type: "state_changed", details: { to: "outcome_unknown" } },
    ];
    for (const event of events) {
      const sentence = describeTokenEvent(event, context);
      expect(sentence.text).not.toMatch(rawCodes);
      expect(sentence.detail ?? "").not.toMatch(/UPSTREAM_/);
    }
  });

  it("tells the next step of an unknown outcome", () => {
    expect(describeTokenEvent({ type: "issue.outcome_unknown", details: { errorCode: "UPSTREAM_TIMEOUT" } }, context).detail).toMatch(/token in their SMS/);
  });

  it("does not call the sweep's mark a timeout: the answer's record is what is missing", () => {
    expect(failureReasonOf({ state: "outcome_unknown", resultError: null, errorCode: "ISSUE_OUTCOME_UNKNOWN", ...smsSent })).toMatch(/^No answer to the issuing call was recorded in time.*enter it on the token page/);
    const sentence = describeTokenEvent({ type: "issue.outcome_unknown", details: { errorCode: "ISSUE_OUTCOME_UNKNOWN" } }, context);
    expect(sentence.text).toBe("No answer to the issuing call was recorded in time: outcome unknown");
    expect(sentence.detail).toMatch(/token in their SMS/);
  });
});

describe("audit sentences", () => {
  const base: AuditSentenceRow = { action: "", actorName: "Kofi Boateng", actorLabel: "supervisor.accra", subjectType: "token_request", subjectId: "4d1c", details: {}, subjectToken: "X7Q3BMSA", subjectStaffName: null };

  it("names the staff member by name and the token, with its link", () => {
    expect(describeAuditEvent({ ...base, action: "token.id_revealed", details: { reason: "Customer dispute" } })).toMatchObject({
      text: "Kofi Boateng revealed the ID number of token X7Q3BMSA",
      detail: "Reason: “Customer dispute”",
      tokenRequestId: "4d1c",
    });
    expect(describeAuditEvent({ ...base, actorName: "Ama Mensah", action: "token.issue", details: { outcome: "issued" } }).text).toBe("Ama Mensah issued token X7Q3BMSA");
    expect(describeAuditEvent({ ...base, action: "token.issue", details: { outcome: "outcome_unknown", errorCode: "UPSTREAM_TIMEOUT" } }).text).not.toMatch(rawCodes);
  });

  it("names the stale-attempt sweep's event as Veridesk's, with the count", () => {
    const one = describeAuditEvent({ ...base, actorName: null, actorLabel: "stale-attempt sweep", action: "token.outcome_unknown_swept", details: { count: 1, tokenRequestIds: ["4d1c"] } });
    expect(one).toMatchObject({ text: "Veridesk found an issuing attempt with no answer recorded in time and marked it outcome unknown", tone: "warning", tokenRequestId: "4d1c" });
    const several = describeAuditEvent({ ...base, actorName: null, actorLabel: "stale-attempt sweep", subjectType: "stale_attempt_sweep", subjectId: "2026-11-27T09:00:00.000Z", action: "token.outcome_unknown_swept", details: { count: 3 } });
    expect(several.text).toBe("Veridesk found 3 issuing attempts with no answer recorded in time and marked them outcome unknown");
    expect(several.tokenRequestId).toBeUndefined();
  });

  it("tells the watcher's record of a token's end as the service's report", () => {
    const sentence = describeAuditEvent({ ...base, actorName: null, actorLabel: "watcher", action: "token.finished", details: { from: "in_progress", to: "failed", error: "Verification Unsuccesful" } });
    expect(sentence.text).toBe("Token X7Q3BMSA: the service reported Failed: Verification Unsuccesful");
    expect(sentence.tokenRequestId).toBe("4d1c");
  });

  it("says whose customer record was produced or erased, by the masked ID number only", () => {
    const customer = { ...base, subjectType: null, subjectId: null, subjectToken: null };
    const produced = describeAuditEvent({ ...customer, action: "customer.record_produced", details: { idType: "GHANA_CARD", maskedIdNumber: "GHA-•••••015-4", tokens: 3, reason: "Written request DSAR-14" } });
    expect(produced).toMatchObject({ text: "Kofi Boateng produced the record of verifications of Ghana Card GHA-•••••015-4 (3 tokens)", detail: "Reason: “Written request DSAR-14”" });
    const erased = describeAuditEvent({
      ...customer,
      action: "customer.erasure_requested",
      details: { idType: "PASSPORT", maskedIdNumber: "••••4567", tokens: 1, contactErased: 1, identityErased: 0, identityKeptForAml: 1, held: 0, reason: "Written request DSAR-15" },
    });
    expect(erased.text).toBe("Kofi Boateng erased the data of Passport ••••4567 at the customer's request");
    expect(erased.detail).toBe("contact data of 1 erased · identity data of 0 erased · identity data of 1 kept for the AML minimum · Reason: “Written request DSAR-15”");
    const refused = describeAuditEvent({ ...customer, action: "customer.erasure_refused", details: { idType: "VOTER", maskedIdNumber: "••••0012", tokens: 0, why: "Nothing can be erased now." } });
    expect(refused.text).toBe("Kofi Boateng asked to erase the data of Voter ID ••••0012: refused");
    // Recorded before the masked number was: the type alone, never a raw code.
    expect(describeAuditEvent({ ...customer, action: "customer.record_produced", details: { idType: "GHANA_CARD", tokens: 1 } }).text).toBe(
      "Kofi Boateng produced the record of verifications of a Ghana Card number (1 token)",
    );
  });

  it("says who signed the day off, for which branch and day, in the bank's date format", () => {
    const sentence = describeAuditEvent({ ...base, subjectType: "branch_day", subjectToken: null, action: "review.reconciliation_signed_off", details: { day: "2026-11-24", requests: 12, note: "Checked" } });
    expect(sentence.text).toBe("Kofi Boateng signed off the end-of-day sheet for 24 Nov 2026");
    expect(sentence.detail).toBe("12 requests · Note: “Checked”");
    expect(describeAuditEvent({ ...base, branchName: "Kumasi – Adum", subjectType: "branch_day", subjectToken: null, action: "review.reconciliation_printed", details: { day: "2026-11-24" } }).text).toBe(
      "Kofi Boateng printed the end-of-day sheet of Kumasi – Adum for 24 Nov 2026",
    );
  });

  it("names what ran when no staff member did, and never repeats the token", () => {
    const system = { ...base, actorName: null, subjectType: null, subjectId: null, subjectToken: null };
    expect(describeAuditEvent({ ...system, actorLabel: "retention job", action: "retention.run", details: { trigger: "schedule" } }).text).toBe(
      "The retention job erased what the retention policy no longer allows keeping",
    );
    expect(describeAuditEvent({ ...system, actorLabel: "db:seed", action: "staff.create", details: { name: "Ama Owusu" } }).text).toBe("The setup command (db:seed) created the account of Ama Owusu");
    expect(describeAuditEvent({ ...base, actorName: null, actorLabel: "watcher", action: "token.finished", details: { to: "expired" } }).text).toBe("Token X7Q3BMSA expired unused after 15 minutes");
  });

  it("tells the two-administrator steps as sentences", () => {
    const approval = { ...base, subjectType: "staff_approval", subjectToken: null };
    expect(describeAuditEvent({ ...approval, action: "staff.approval_requested", details: { kind: "create", username: "k.mensah" } }).text).toBe(
      "Kofi Boateng proposed a new account for k.mensah; it waits for a second administrator",
    );
    expect(describeAuditEvent({ ...approval, action: "staff.approval_approved", details: { username: "k.mensah" } }).text).toBe("Kofi Boateng approved the proposal for k.mensah");
  });
});

describe("the next step of an attempt whose answer never arrived", () => {
  const unknown = { state: "outcome_unknown" as const, token: null, resultError: null, errorCode: "UPSTREAM_TIMEOUT" };
  const noLink = /^The service's answer to the issuing call never arrived\. No SMS or e-mail was sent for this attempt, so the customer has no token to read out\. Next step: if the customer still needs verifying, issue a new token/;

  it("sends a fingerprint attempt's supervisor to a new token, never to the customer's SMS", () => {
    const reason = failureReasonOf({ ...unknown, kind: "fingerprint", sendSms: null, hasEmail: false });
    expect(reason).toMatch(noLink);
    expect(reason).not.toMatch(/token in their SMS|enter it on the token page/);
  });

  it("sends a remote attempt that sent neither SMS nor e-mail to a new token", () => {
    expect(failureReasonOf({ ...unknown, kind: "remote", sendSms: false, hasEmail: false })).toMatch(noLink);
    expect(failureReasonOf({ ...unknown, kind: "remote", sendSms: null, hasEmail: false })).toMatch(noLink);
  });

  it("asks for the token in the customer's SMS or e-mail when a link went out", () => {
    const bySms = failureReasonOf({ ...unknown, kind: "remote", sendSms: true, hasEmail: false });
    expect(bySms).toBe(`The service's answer to the issuing call never arrived. ${outcomeUnknownLinkSentStep}`);
    expect(bySms).toMatch(/ask the customer for the token in their SMS or e-mail; a supervisor who did not issue it can enter it on the token page/);
    expect(failureReasonOf({ ...unknown, kind: "remote", sendSms: false, hasEmail: true })).toBe(bySms);
  });

  it("tells a token whose result never came back, link or not, to ask the customer, not to enter a token", () => {
    for (const kind of ["fingerprint", "remote"] as const) {
      const reason = failureReasonOf({ ...unknown, errorCode: null, token: "X7Q3BMSA", kind, sendSms: kind === "remote", hasEmail: false });
      expect(reason).toBe("The customer started, but the service never sent a result. Next step: ask the customer whether they finished, and call support before trying again.");
    }
  });

  it("tells the history the same, from the context's link", () => {
    const event = { type: "issue.outcome_unknown", details: { errorCode: "ISSUE_OUTCOME_UNKNOWN" } };
    expect(describeTokenEvent(event, { ...context, kind: "fingerprint", isLinkSent: false }).detail).toBe(outcomeUnknownNoLinkStep);
    expect(describeTokenEvent(event, context).detail).toBe(outcomeUnknownLinkSentStep);
  });

  it("tells the audit trail the same, from the joined token row or the event's kind", () => {
    const base: AuditSentenceRow = { action: "token.issue", actorName: "Ama Mensah", actorLabel: "teller.accra", subjectType: "token_request", subjectId: "4d1c", details: { outcome: "outcome_unknown", errorCode: "UPSTREAM_TIMEOUT", kind: "remote" }, subjectToken: null, subjectStaffName: null };
    expect(describeAuditEvent({ ...base, subjectKind: "remote", subjectSendSms: false, subjectHasEmail: false }).detail).toBe(outcomeUnknownNoLinkStep);
    expect(describeAuditEvent({ ...base, subjectKind: "remote", subjectSendSms: false, subjectHasEmail: true }).detail).toBe(outcomeUnknownLinkSentStep);
    expect(describeAuditEvent({ ...base, details: { ...base.details, kind: "fingerprint" } }).detail).toBe(outcomeUnknownNoLinkStep);
    const swept = describeAuditEvent({ ...base, actorName: null, action: "token.outcome_unknown_swept", details: { count: 1 }, subjectKind: "fingerprint", subjectSendSms: null, subjectHasEmail: false });
    expect(swept.detail).toBe(outcomeUnknownNoLinkStep);
  });
});

describe("failure reasons", () => {
  it("is the service's text for a live failure, and the next step for an unknown outcome", () => {
    expect(failureReasonOf({ state: "failed", resultError: "Verification Unsuccesful", errorCode: null, ...smsSent })).toBe("Verification Unsuccesful");
    expect(failureReasonOf({ state: "outcome_unknown", resultError: null, errorCode: "UPSTREAM_TIMEOUT", ...smsSent })).toMatch(/enter it on the token page/);
    expect(failureReasonOf({ state: "not_issued", resultError: null, errorCode: "UPSTREAM_REJECTED", ...smsSent })).not.toMatch(/UPSTREAM_/);
    expect(failureReasonOf({ state: "successful", resultError: null, errorCode: null, ...smsSent })).toBeNull();
  });
});
