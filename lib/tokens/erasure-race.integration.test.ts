import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { permissionsOf } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/types";
import { eraseCustomerDataOnRequest } from "@/lib/review/customer-record";
import type { Database } from "@/lib/db/types";
import { tokenRequests } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { aBranch, aStaffMember } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import type { UpstreamClient } from "@/lib/upstream";
import { remoteSubmission } from "@/test/kit/submissions";
import { attachTokenFromSms, type SmsTokenAttacher } from "./attach-sms-token";
import { issueRemoteToken, type TokenIssuer } from "./issue-token";

/**
 * An erasure on the customer's request that runs while Veridesk is waiting for the service: the
 * answer, when it comes, records the token but never writes the customer's phone back into the
 * erased row (the row would hold the phone again while saying "erased"). Both writers of
 * sms_sent_to: the issuing answer, and the token entered from the customer's SMS. The erasure is
 * the real one (lib/compliance), run from inside the service's call. PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set.
 */

const keys = scratchPiiKeys();
const silentLog = { info: () => undefined, error: () => undefined };

function defineErasureRaceTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;
  let db: Database;
  let teller: TokenIssuer;
  let supervisor: SmsTokenAttacher;
  let recordsOfficer: Staff;

  beforeAll(async () => {
    scratch = await createDatabase();
    db = scratch.opened.db;
    const branch = await aBranch(db, { code: "KUM", name: "Kumasi – Adum" });
    for (const [role, username] of [["teller", "teller.kumasi"], ["supervisor", "supervisor.kumasi"]] as const) {
      await aStaffMember(db, { role, branchId: branch.id, username, userId: `id-${username}` });
    }
    teller = { userId: "id-teller.kumasi", username: "teller.kumasi", branch: { id: branch.id, name: branch.name } };
    supervisor = { userId: "id-supervisor.kumasi", username: "supervisor.kumasi", scope: { kind: "branch", branchId: branch.id } };
    recordsOfficer = {
      userId: "id-supervisor.kumasi",
      username: "supervisor.kumasi",
      name: "supervisor.kumasi",
      role: "supervisor",
      branch: { id: branch.id, code: "KUM", name: branch.name },
      permissions: permissionsOf("supervisor"),
      session: { id: "s", signInMethod: "password", idleExpiresAt: new Date(Date.now() + 60_000), absoluteExpiresAt: new Date(Date.now() + 60_000) },
    };
  }, 120_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  /** The customer's written request, processed by a supervisor under Customer records. */
  const eraseOnRequest = (ghanaCardNumber: string) =>
    eraseCustomerDataOnRequest(
      db,
      keys,
      { staff: recordsOfficer, scope: { kind: "branch", branchId: teller.branch.id }, requestId: "req-erase" },
      { idType: "GHANA_CARD", idNumber: ghanaCardNumber, reason: "The customer's written request of today" },
    );

  const rowOf = async (id: string) => (await db.select().from(tokenRequests).where(eq(tokenRequests.id, id)))[0]!;

  it("an issuing answer arriving after the customer's contact data were erased records the token, not the phone", async () => {
    const submission = remoteSubmission();
    let erasedWhileWaiting = 0;
    const upstream: UpstreamClient = {
      initiateFingerprintToken: () => Promise.reject(new Error("not used")),
      initiateRemoteToken: async (request) => {
        // The row is written before the call: the erasure finds it and erases it now.
        erasedWhileWaiting = (await eraseOnRequest(submission.idType === "GHANA_CARD" ? submission.ghanaCardNumber : "")).contactErased;
        return { token: "RACEISSUE1", phoneNumber: request.phonenumber, message: "Verification token generated successfully" };
      },
      checkTokenState: () => Promise.reject(new Error("not used")),
      getTokenResult: () => Promise.reject(new Error("not used")),
    };

    const result = await issueRemoteToken(submission, teller, "req-issue", { db, upstream, keys, log: silentLog });

    expect(erasedWhileWaiting).toBe(1);
    expect(result).toMatchObject({ status: "issued", token: "RACEISSUE1" });
    const row = await rowOf((result as { tokenRequestId: string }).tokenRequestId);
    expect(row).toMatchObject({ outcome: "issued", token: "RACEISSUE1", contactErasedUnder: "request" });
    expect(row.contactErasedAt).not.toBeNull();
    expect({ masked: row.smsSentToMasked, encrypted: row.smsSentToEncrypted, phone: row.phoneNumberEncrypted, reference: row.referenceEncrypted }).toEqual({
      masked: null,
      encrypted: null,
      phone: null,
      reference: null,
    });
  });

  it("an issuing answer with no erasure meanwhile still records where the SMS went", async () => {
    const submission = remoteSubmission();
    const upstream: UpstreamClient = {
      initiateFingerprintToken: () => Promise.reject(new Error("not used")),
      initiateRemoteToken: async (request) => ({ token: "NORACE001", phoneNumber: request.phonenumber }),
      checkTokenState: () => Promise.reject(new Error("not used")),
      getTokenResult: () => Promise.reject(new Error("not used")),
    };
    const result = await issueRemoteToken(submission, teller, "req-issue", { db, upstream, keys, log: silentLog });
    const row = await rowOf((result as { tokenRequestId: string }).tokenRequestId);
    expect(row).toMatchObject({ outcome: "issued", token: "NORACE001", smsSentToMasked: "024 ••• 4567", contactErasedAt: null });
    expect(row.smsSentToEncrypted).not.toBeNull();
  });

  it("a token entered from the customer's SMS after their contact data were erased is attached without writing the phone back", async () => {
    const submission = remoteSubmission({ purpose: "Account opening" });
    const unanswered: UpstreamClient = {
      initiateFingerprintToken: () => Promise.reject(new Error("not used")),
      initiateRemoteToken: () => Promise.reject(new AppError("UPSTREAM_TIMEOUT", "no answer within 10 ms")),
      checkTokenState: () => Promise.reject(new Error("not used")),
      getTokenResult: () => Promise.reject(new Error("not used")),
    };
    await issueRemoteToken(submission, teller, "req-issue", { db, upstream: unanswered, keys, log: silentLog }).catch((error: unknown) =>
      expect(error).toMatchObject({ code: "UPSTREAM_TIMEOUT" }),
    );
    const [attempt] = await db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, submission.idempotencyKey));
    expect(attempt).toMatchObject({ outcome: "outcome_unknown", contactErasedAt: null });

    // While the service is asked about the token, the customer's erasure request is processed.
    const checking: UpstreamClient = {
      ...unanswered,
      checkTokenState: async () => {
        await eraseOnRequest(submission.idType === "GHANA_CARD" ? submission.ghanaCardNumber : "");
        return { state: "pending", message: "Pending Token" };
      },
    };
    await attachTokenFromSms({ tokenRequestId: attempt!.id, token: "RACEATTACH1" }, supervisor, "req-attach", { db, keys, upstream: checking });

    const row = await rowOf(attempt!.id);
    expect(row).toMatchObject({ outcome: "issued", token: "RACEATTACH1", contactErasedUnder: "request" });
    expect({ masked: row.smsSentToMasked, encrypted: row.smsSentToEncrypted, phone: row.phoneNumberEncrypted }).toEqual({ masked: null, encrypted: null, phone: null });
  });
}

forEachDatabase("an erasure on request while the service is asked", (driver) => defineErasureRaceTests(() => openScratchDatabase({ driver, name: "erasure-race" })));
