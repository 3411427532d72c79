import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OpenedDatabase } from "@/lib/db/types";
import { auditEvents, tokenEvents, tokenRequests } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { computeReferenceIndex, decryptField } from "@/lib/pii";
import type { UpstreamClient } from "@/lib/upstream";
import { aBranch, aStaffMember } from "@/test/kit/builders";
import { openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { fingerprintSubmission, remoteSubmission } from "@/test/kit/submissions";
import { issueFingerprintToken, issueRemoteToken, type IssueDependencies, type IssueOverrides, type TokenIssuer } from "./issue-token";
import { getTokenRequestView } from "./token-views";

/**
 * The issuing use case against a real (embedded PostgreSQL) database and a scripted service:
 * idempotency under races, outcomes of each failure, PII at rest.
 */

let scratch: ScratchDatabase;
let opened: OpenedDatabase;
let issuer: TokenIssuer;
let otherTeller: TokenIssuer;

const keys = scratchPiiKeys();

type Script = { delayMs?: number; fail?: AppError };
function scriptedService(script: Script = {}) {
  const calls: string[] = [];
  let counter = 0;
  const answer = async <T>(value: () => T): Promise<T> => {
    await new Promise((resolve) => setTimeout(resolve, script.delayMs ?? 0));
    if (script.fail) throw script.fail;
    return value();
  };
  const upstream: UpstreamClient = {
    initiateFingerprintToken: (request) => {
      calls.push(`fingerprint ${request.idNumber}`);
      return answer(() => ({ token: `FP${++counter}X${randomUUID().slice(0, 4).toUpperCase()}` }));
    },
    initiateRemoteToken: (request) => {
      calls.push(`remote ${request.id_type}`);
      return answer(() => ({ token: `RM${++counter}X${randomUUID().slice(0, 4).toUpperCase()}`, phoneNumber: request.phonenumber }));
    },
    checkTokenState: () => Promise.reject(new Error("not used")),
    getTokenResult: () => Promise.reject(new Error("not used")),
  };
  return { upstream, calls };
}

const silentLog = { info: () => undefined, error: () => undefined };

function dependencies(upstream: UpstreamClient, extra: Partial<IssueDependencies> = {}): IssueOverrides {
  return { db: opened.db, upstream, keys, log: silentLog, pendingWaitMs: 3_000, stalePendingMs: 60_000, ...extra };
}

beforeAll(async () => {
  scratch = await openScratchDatabase({ driver: "pglite", name: "tokens" });
  opened = scratch.opened;
  const branch = await aBranch(opened.db, { code: "KSI", name: "Kumasi – Adum" });
  const otherBranch = await aBranch(opened.db, { code: "ACC", name: "Accra – Head Office" });
  const teller = await aStaffMember(opened.db, { role: "teller", branchId: branch.id, username: "teller-1", displayName: "Ama Teller" });
  const other = await aStaffMember(opened.db, { role: "teller", branchId: otherBranch.id, username: "teller-2", displayName: "Kofi Teller" });
  issuer = { userId: teller.userId, username: teller.username, branch: { id: branch.id, name: branch.name } };
  otherTeller = { userId: other.userId, username: other.username, branch: { id: otherBranch.id, name: otherBranch.name } };
});

afterAll(async () => {
  await scratch?.destroy();
});

let service: ReturnType<typeof scriptedService>;
beforeEach(() => {
  service = scriptedService();
});

async function rowOf(id: string) {
  const [row] = await opened.db.select().from(tokenRequests).where(eq(tokenRequests.id, id));
  return row!;
}

describe("the bank's purpose policy", () => {
  it("refuses a disallowed ID type or kind with a field error naming the policy, writing nothing and calling nobody", async () => {
    const passport = remoteSubmission({ idType: "PASSPORT", passportNumber: "G1234567", purpose: "Account opening" });
    const countRows = async () => (await opened.db.select({ id: tokenRequests.id }).from(tokenRequests)).length;
    const rowsBefore = await countRows();
    const refused = await issueRemoteToken(passport, issuer, "req-policy", dependencies(service.upstream)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("VALIDATION");
    expect((refused as AppError).fieldErrors).toEqual({ idType: ['The bank\'s policy for "Account opening" allows only Ghana Card.'] });

    const withdrawal = await issueRemoteToken({ ...passport, purpose: "Cash withdrawal", idempotencyKey: randomUUID() }, issuer, "req", dependencies(service.upstream)).catch(
      (error: unknown) => error,
    );
    expect((withdrawal as AppError).fieldErrors).toEqual({ purpose: ['The bank\'s policy for "Cash withdrawal" does not allow remote tokens.'] });
    const invented = await issueFingerprintToken(fingerprintSubmission({ purpose: "Anything I like" }), issuer, "req", dependencies(service.upstream)).catch(
      (error: unknown) => error,
    );
    expect(Object.keys((invented as AppError).fieldErrors ?? {})).toEqual(["purpose"]);

    expect(service.calls).toEqual([]);
    expect(await countRows()).toBe(rowsBefore);
  });

  it("records which purpose allowed the token", async () => {
    const result = await issueFingerprintToken(fingerprintSubmission(), issuer, "req", dependencies(service.upstream));
    if (result.status !== "issued") throw new Error("expected issued");
    const row = await rowOf(result.tokenRequestId);
    expect(row.purpose).toBe("Account opening");
    expect(row.purposeId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("issuing a fingerprint token", () => {
  it("records the attempt, calls the service once and stores the token with a 15-minute expiry", async () => {
    const submission = fingerprintSubmission();
    const before = Date.now();
    const result = await issueFingerprintToken(submission, issuer, "req-1", dependencies(service.upstream));
    expect(result).toMatchObject({ status: "issued", replayed: false });
    if (result.status !== "issued") throw new Error("expected issued");
    expect(service.calls).toEqual([`fingerprint ${submission.ghanaCardNumber}`]);

    const row = await rowOf(result.tokenRequestId);
    expect(row).toMatchObject({ outcome: "issued", kind: "fingerprint", idType: "GHANA_CARD", branchName: "Kumasi – Adum", token: result.token });
    expect(row.issuedAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(row.expiresAt!.getTime() - row.issuedAt!.getTime()).toBe(15 * 60_000);

    const events = await opened.db.select().from(tokenEvents).where(eq(tokenEvents.tokenRequestId, row.id));
    expect(events.map((event) => event.type)).toEqual(["issue.requested", "issue.issued"]);
    const audit = await opened.db.select().from(auditEvents).where(eq(auditEvents.subjectId, row.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "token.issue", actorUserId: issuer.userId });
  });

  it("keeps the ID number encrypted and bound to its row", async () => {
    const submission = fingerprintSubmission();
    const result = await issueFingerprintToken(submission, issuer, "req", dependencies(service.upstream));
    if (result.status !== "issued") throw new Error("expected issued");
    const row = await rowOf(result.tokenRequestId);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(submission.ghanaCardNumber.slice(4, 13));
    expect(decryptField(row.idNumberEncrypted!, `token_requests.id_number:${row.id}`, keys)).toBe(submission.ghanaCardNumber);
    expect(row.idNumberLast4).toBe(submission.ghanaCardNumber.replace(/\D/g, "").slice(-4));
  });
});

describe("the customer's consent (ADR 0023)", () => {
  it("refuses a token without the teller's attestation, or under an outdated wording, writing nothing and calling nobody", async () => {
    const countRows = async () => (await opened.db.select({ id: tokenRequests.id }).from(tokenRequests)).length;
    const rowsBefore = await countRows();
    const callsBefore = service.calls.length;
    // A crafted call skips the schema: the use case refuses on its own.
    const unattested = { ...fingerprintSubmission(), consentAttested: false };
    const refused = (await issueFingerprintToken(unattested, issuer, "req", dependencies(service.upstream)).catch((error: unknown) => error)) as AppError;
    expect(refused.code).toBe("VALIDATION");
    expect(Object.keys(refused.fieldErrors ?? {})).toEqual(["consentAttested"]);
    const outdated = (await issueFingerprintToken(fingerprintSubmission({ consentWordingVersion: 7 }), issuer, "req", dependencies(service.upstream)).catch(
      (error: unknown) => error,
    )) as AppError;
    expect(outdated.fieldErrors?.consentAttested?.[0]).toMatch(/wording changed/);
    expect(service.calls.length).toBe(callsBefore);
    expect(await countRows()).toBe(rowsBefore);
  });

  it("records the attestation and the wording version on the token", async () => {
    const result = await issueFingerprintToken(fingerprintSubmission(), issuer, "req", dependencies(service.upstream));
    if (result.status !== "issued") throw new Error("expected issued");
    const row = await rowOf(result.tokenRequestId);
    expect(row.consentWordingVersion).toBe(1);
    expect(row.consentAttestedAt).toBeInstanceOf(Date);
  });
});

describe("phone numbers and reference encrypted (ADRs 0006, 0023)", () => {
  it("stores only masked copies in clear, ciphertexts bound to the row, and a blind index of the reference", async () => {
    const submission = remoteSubmission({ phoneNumber: "0245551234", referenceId: "024 555 1234" });
    const result = await issueRemoteToken(submission, issuer, "req", dependencies(service.upstream));
    if (result.status !== "issued") throw new Error("expected issued");
    const row = await rowOf(result.tokenRequestId);
    expect(JSON.stringify(row)).not.toContain("5551234");
    expect(JSON.stringify(row)).not.toContain("0245551234");
    expect(row.referenceMasked).toBe("024 ••• 1234");
    expect(row.phoneNumberMasked).toBe("024 ••• 1234");
    expect(decryptField(row.phoneNumberEncrypted!, `token_requests.phone_number:${row.id}`, keys)).toBe("0245551234");
    expect(decryptField(row.referenceEncrypted!, `token_requests.reference:${row.id}`, keys)).toBe("0245551234");
    expect(row.referenceIndex).toBe(computeReferenceIndex("0245551234", keys));
    if (row.smsSentToEncrypted) expect(decryptField(row.smsSentToEncrypted, `token_requests.sms_sent_to:${row.id}`, keys)).toMatch(/5551234$/);
  });
});

describe("nothing doubled", () => {
  it("answers a repeated submit from the first attempt without calling the service again", async () => {
    const submission = fingerprintSubmission();
    const first = await issueFingerprintToken(submission, issuer, "req-a", dependencies(service.upstream));
    const again = await issueFingerprintToken(submission, issuer, "req-b", dependencies(service.upstream));
    expect(again).toEqual({ ...first, replayed: true });
    expect(service.calls).toHaveLength(1);
  });

  it("lets two racing submits with one key make one call and one row", async () => {
    const slow = scriptedService({ delayMs: 300 });
    const submission = fingerprintSubmission();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, index) => issueFingerprintToken(submission, issuer, `race-${index}`, dependencies(slow.upstream))),
    );
    expect(slow.calls).toHaveLength(1);
    const ids = new Set(results.map((result) => (result.status === "issued" ? result.tokenRequestId : "none")));
    expect(ids.size).toBe(1);
    expect(results.filter((result) => result.status === "issued" && !result.replayed)).toHaveLength(1);
    const rows = await opened.db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, submission.idempotencyKey));
    expect(rows).toHaveLength(1);
  });

  it("refuses the same key with different fields", async () => {
    const submission = fingerprintSubmission();
    await issueFingerprintToken(submission, issuer, "req", dependencies(service.upstream));
    const changed = { ...submission, referenceId: "another reference" };
    await expect(issueFingerprintToken(changed, issuer, "req", dependencies(service.upstream))).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(service.calls).toHaveLength(1);
  });

  it("refuses another teller's key even with the same fields", async () => {
    const submission = fingerprintSubmission();
    await issueFingerprintToken(submission, issuer, "req", dependencies(service.upstream));
    await expect(issueFingerprintToken(submission, { ...otherTeller, branch: issuer.branch }, "req", dependencies(service.upstream))).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_REUSED",
    });
  });
});

describe("nothing lost", () => {
  it("marks its own earlier attempt, stuck past any call's length, as the sweep would when the same form comes again: event and audit row; the late answer still lands", async () => {
    const slow = scriptedService({ delayMs: 1_500 });
    const submission = fingerprintSubmission();
    const rowByKey = async () => (await opened.db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, submission.idempotencyKey)))[0];
    // The first submit's call is still running (as a dead process's would be, for ever)...
    const first = issueFingerprintToken(submission, issuer, "req-first", dependencies(slow.upstream));
    await expect.poll(async () => (await rowByKey())?.outcome).toBe("pending");
    // ...and, by the second submit's clock, for longer than any call can take.
    const later = () => new Date(Date.now() + 120_000);
    const again = await issueFingerprintToken(submission, issuer, "req-again", dependencies(service.upstream, { now: later })).catch((caught: unknown) => caught);
    expect(again).toMatchObject({ code: "ISSUE_OUTCOME_UNKNOWN" });
    const marked = (await rowByKey())!;
    expect(marked).toMatchObject({ outcome: "outcome_unknown", errorCode: "ISSUE_OUTCOME_UNKNOWN", token: null });
    const events = await opened.db.select().from(tokenEvents).where(eq(tokenEvents.tokenRequestId, marked.id));
    expect(events.map((event) => event.type)).toContain("issue.outcome_unknown");
    const audited = (await opened.db.select().from(auditEvents).where(eq(auditEvents.action, "token.outcome_unknown_swept"))).filter((event) => event.subjectId === marked.id);
    expect(audited).toHaveLength(1);
    expect(service.calls).toHaveLength(0);

    await first;
    expect(await rowOf(marked.id)).toMatchObject({ outcome: "issued", token: expect.stringMatching(/^FP/) });
  });

  it("records a timeout as outcome unknown and never retries it under the same key", async () => {
    const timingOut = scriptedService({ fail: new AppError("UPSTREAM_TIMEOUT", "POST … got no complete answer within 10 ms") });
    const submission = fingerprintSubmission();
    const error = await issueFingerprintToken(submission, issuer, "req", dependencies(timingOut.upstream)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "UPSTREAM_TIMEOUT" });
    expect((error as AppError).userMessage).toMatch(/open this attempt before trying again/);
    const [row] = await opened.db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, submission.idempotencyKey));
    expect(row).toMatchObject({ outcome: "outcome_unknown", errorCode: "UPSTREAM_TIMEOUT", token: null });

    await expect(issueFingerprintToken(submission, issuer, "req-2", dependencies(service.upstream))).rejects.toMatchObject({ code: "UPSTREAM_TIMEOUT" });
    expect(service.calls).toHaveLength(0);
  });

  it.each([
    ["UPSTREAM_SERVER_ERROR", "failed_upstream"],
    ["UPSTREAM_UNAUTHORIZED", "failed_upstream"],
    ["UPSTREAM_MALFORMED", "outcome_unknown"],
    ["UPSTREAM_BAD_RESPONSE", "outcome_unknown"],
    ["UPSTREAM_REJECTED", "rejected"],
  ] as const)("records %s as %s", async (code, outcome) => {
    const failing = scriptedService({ fail: new AppError(code, "scripted") });
    const submission = fingerprintSubmission();
    await expect(issueFingerprintToken(submission, issuer, "req", dependencies(failing.upstream))).rejects.toMatchObject({ code });
    const [row] = await opened.db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, submission.idempotencyKey));
    expect(row?.outcome).toBe(outcome);
  });

  it("tells a refused connection (nothing sent) from a broken one (maybe sent)", async () => {
    const refused = scriptedService({ fail: new AppError("UPSTREAM_NETWORK", "POST x failed before an answer: fetch failed (ECONNREFUSED)") });
    const broken = scriptedService({ fail: new AppError("UPSTREAM_NETWORK", "POST x failed before an answer: other side closed (UND_ERR_SOCKET)") });
    const first = fingerprintSubmission();
    const second = fingerprintSubmission();
    await issueFingerprintToken(first, issuer, "r", dependencies(refused.upstream)).catch(() => undefined);
    const brokenError = await issueFingerprintToken(second, issuer, "r", dependencies(broken.upstream)).catch((caught: unknown) => caught as AppError);
    const outcomes = await Promise.all(
      [first, second].map(async (s) => (await opened.db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, s.idempotencyKey)))[0]?.outcome),
    );
    expect(outcomes).toEqual(["failed_upstream", "outcome_unknown"]);
    expect(brokenError).toMatchObject({ code: "UPSTREAM_CONNECTION_LOST" });
    expect((brokenError as AppError).userMessage).toMatch(/may or may not exist/);
  });

  it("maps the service's field errors back to the form's fields", async () => {
    const rejecting = scriptedService({
      fail: new AppError("UPSTREAM_REJECTED", "422", { fieldErrors: { ghanacardnumber: ["must match GHA-XXXXXXXXX-X"], branch: ["odd"] } }),
    });
    const submission = remoteSubmission();
    const error = (await issueRemoteToken(submission, issuer, "r", dependencies(rejecting.upstream)).catch((caught: unknown) => caught)) as AppError;
    expect(error.fieldErrors).toEqual({ ghanaCardNumber: ["The service says: must match GHA-XXXXXXXXX-X"] });
    expect(error.userMessage).toMatch(/The service says: odd/);
  });
});

describe("same customer, active token", () => {
  it("stops before a second token for the same ID number unless the teller goes on deliberately", async () => {
    const first = fingerprintSubmission();
    const issued = await issueFingerprintToken(first, issuer, "r", dependencies(service.upstream));
    if (issued.status !== "issued") throw new Error("expected issued");

    // Typed differently, the same card: the blind index still finds it.
    const typedDifferently = first.ghanaCardNumber.replace(/-/g, " ").toLowerCase();
    const second = fingerprintSubmission({ ghanaCardNumber: typedDifferently });
    const warned = await issueFingerprintToken(second, issuer, "r", dependencies(service.upstream));
    expect(warned).toEqual({
      status: "active_token_exists",
      activeTokens: [expect.objectContaining({ tokenRequestId: issued.tokenRequestId, isOwnBranch: true, state: "waiting" })],
    });
    expect(service.calls).toHaveLength(1);

    const deliberate = await issueFingerprintToken({ ...second, allowDuplicate: true }, issuer, "r", dependencies(service.upstream));
    expect(deliberate.status).toBe("issued");
    expect(service.calls).toHaveLength(2);
  });

  it("does not warn about an expired token", async () => {
    let now = new Date();
    const clock = () => now;
    const first = fingerprintSubmission();
    await issueFingerprintToken(first, issuer, "r", dependencies(service.upstream, { now: clock }));
    now = new Date(now.getTime() + 16 * 60_000);
    const later = await issueFingerprintToken(fingerprintSubmission({ ghanaCardNumber: first.ghanaCardNumber }), issuer, "r", dependencies(service.upstream, { now: clock }));
    expect(later.status).toBe("issued");
  });

  it("names the state and the time left, counted on the server's clock", async () => {
    let now = new Date();
    const clock = () => now;
    const first = fingerprintSubmission();
    const issued = await issueFingerprintToken(first, issuer, "r", dependencies(service.upstream, { now: clock }));
    if (issued.status !== "issued") throw new Error("expected issued");
    now = new Date(now.getTime() + 6 * 60_000);
    const warned = await issueFingerprintToken(fingerprintSubmission({ ghanaCardNumber: first.ghanaCardNumber }), issuer, "r", dependencies(service.upstream, { now: clock }));
    if (warned.status !== "active_token_exists") throw new Error("expected a warning");
    const [active] = warned.activeTokens;
    if (!active?.isOwnBranch) throw new Error("expected the branch's own token");
    expect(active).toMatchObject({ state: "waiting", checkedAt: now.toISOString(), issuedByName: "Ama Teller" });
    expect(Date.parse(active.expiresAt!) - Date.parse(active.checkedAt)).toBe(9 * 60_000);
  });

  it("never stops the teller for a token that already ended within its 15 minutes, nor for an attempt whose answer never came", async () => {
    type Ending = (id: string, at: Date) => Partial<typeof tokenRequests.$inferInsert>;
    const endings: Record<string, Ending> = {
      successful: (_id, at) => ({ usedSeenAt: at, resultStatus: "SUCCESSFUL", transactionNumber: "TXN-OK-1", resultAt: at, lastAnswerAt: at }),
      failed: (_id, at) => ({ usedSeenAt: at, resultStatus: "FAILED", transactionNumber: "TXN-NO-1", resultError: "Face did not match", resultAt: at, lastAnswerAt: at }),
      // Said twice, 6 s apart: once is not enough (ADR 0043).
      invalid: (_id, at) => ({ invalidSeenAt: new Date(at.getTime() - 6_000), lastAnswerAt: at, lastUpstreamState: "invalid", lastUpstreamStateAt: at }),
      "closed failed": (_id, at) => ({ liveState: "failed", finishedAt: at, resultStatus: "FAILED", transactionNumber: "TXN-NO-2", resultAt: at }),
    };
    for (const [name, ending] of Object.entries(endings)) {
      const first = fingerprintSubmission();
      const issued = await issueFingerprintToken(first, issuer, "r", dependencies(service.upstream));
      if (issued.status !== "issued") throw new Error("expected issued");
      // The watcher learnt the ending two minutes in: 13 of the 15 minutes are still to run.
      await opened.db.update(tokenRequests).set(ending(issued.tokenRequestId, new Date())).where(eq(tokenRequests.id, issued.tokenRequestId));
      const next = await issueFingerprintToken(fingerprintSubmission({ ghanaCardNumber: first.ghanaCardNumber }), issuer, "r", dependencies(service.upstream));
      expect(next.status, name).toBe("issued");
    }

    // Outcome unknown: final; its page told the teller to issue a new token if nothing arrived.
    const timedOut = scriptedService({ fail: new AppError("UPSTREAM_TIMEOUT", "no answer") });
    const lost = remoteSubmission();
    await issueRemoteToken(lost, issuer, "r", dependencies(timedOut.upstream)).catch((error: unknown) => expect(error).toMatchObject({ code: "UPSTREAM_TIMEOUT" }));
    const retry = await issueRemoteToken({ ...remoteSubmission({ ghanaCardNumber: lost.idType === "GHANA_CARD" ? lost.ghanaCardNumber : "" }) }, issuer, "r", dependencies(service.upstream));
    expect(retry.status).toBe("issued");
  });

  it("warns of a token the customer has started, saying so", async () => {
    const first = fingerprintSubmission();
    const issued = await issueFingerprintToken(first, issuer, "r", dependencies(service.upstream));
    if (issued.status !== "issued") throw new Error("expected issued");
    const at = new Date();
    await opened.db.update(tokenRequests).set({ usedSeenAt: at, lastAnswerAt: at, lastUpstreamState: "used", lastUpstreamStateAt: at }).where(eq(tokenRequests.id, issued.tokenRequestId));
    const warned = await issueFingerprintToken(fingerprintSubmission({ ghanaCardNumber: first.ghanaCardNumber }), issuer, "r", dependencies(service.upstream));
    expect(warned).toMatchObject({ status: "active_token_exists", activeTokens: [{ tokenRequestId: issued.tokenRequestId, state: "in_progress" }] });
    const warnings = await opened.db.select().from(auditEvents).where(eq(auditEvents.action, "token.active_token_warning"));
    expect(warnings.at(-1)).toMatchObject({ details: { ownBranchTokenIds: [issued.tokenRequestId], ownBranchStates: ["in_progress"], otherBranchTokens: 0 } });
  });

  it("marks tokens of another branch as not linkable", async () => {
    const first = fingerprintSubmission();
    await issueFingerprintToken(first, otherTeller, "r", dependencies(service.upstream));
    const warned = await issueFingerprintToken(fingerprintSubmission({ ghanaCardNumber: first.ghanaCardNumber }), issuer, "r", dependencies(service.upstream));
    // That one exists, and nothing about who issued it or where.
    expect(warned).toEqual({ status: "active_token_exists", activeTokens: [{ isOwnBranch: false }] });
    const warnings = await opened.db.select().from(auditEvents).where(eq(auditEvents.action, "token.active_token_warning"));
    expect(warnings.at(-1)).toMatchObject({
      actorUserId: issuer.userId,
      branchId: issuer.branch.id,
      details: { ownBranchTokenIds: [], otherBranchTokens: 1 },
    });
  });
});

describe("remote token view", () => {
  it("shows masked delivery details and refuses another branch", async () => {
    const submission = remoteSubmission({
      idType: "DRIVER_LICENCE",
      driverLicenceNumber: "DL-998877",
      dateOfBirth: "1990-05-17",
      phoneNumber: "+233 24 765 4321",
      referenceId: "+233 24 765 4321",
      purpose: "Loan application",
      email: "ama.mensah@example.com",
      skipInstructions: true,
      livenessOnly: true,
    });
    const result = await issueRemoteToken(submission, issuer, "r", dependencies(service.upstream));
    if (result.status !== "issued") throw new Error("expected issued");
    expect(service.calls).toEqual(["remote DRIVER_LICENCE"]);

    const row = await rowOf(result.tokenRequestId);
    expect(decryptField(row.dateOfBirthEncrypted!, `token_requests.date_of_birth:${row.id}`, keys)).toBe("1990-05-17");
    expect(JSON.stringify(row)).not.toContain("ama.mensah");
    expect(row).toMatchObject({ phoneNumberMasked: "024 ••• 4321", referenceMasked: "024 ••• 4321", smsSentToMasked: "024 ••• 4321", isEmailSent: true });
    expect(JSON.stringify(row)).not.toContain("7654321");

    const view = await getTokenRequestView({ kind: "branch", branchId: issuer.branch.id }, row.id, { db: opened.db, keys });
    expect(view).toMatchObject({
      kind: "remote",
      idTypeLabel: "Driver licence",
      maskedIdNumber: "••••8877",
      outcome: "issued",
      token: result.token,
      delivery: { smsTo: "024 ••• 4321", emailTo: "a•••@example.com" },
      options: { sendSms: true, skipInstructions: true, livenessOnly: true, captureLocation: false, captureHomeAddress: false },
    });
    expect(JSON.stringify(view)).not.toMatch(/Encrypted|idNumberIndex|DL-998877/);

    await expect(getTokenRequestView({ kind: "branch", branchId: otherTeller.branch.id }, row.id, { db: opened.db, keys })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getTokenRequestView({ kind: "all" }, "not-a-uuid", { db: opened.db, keys })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
