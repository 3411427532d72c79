import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createActionWrapper, type ActionLogger } from "@/lib/actions/wrapper";
import { permissionsOf } from "@/lib/auth/permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";
import type { Staff } from "@/lib/auth/types";
import type { Database } from "@/lib/db/types";
import { auditEvents, authUsers, tokenEvents, tokenRequests } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { decryptField } from "@/lib/pii";
import { aBranch, aStaffMember } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { createUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { toRemoteTokenRequest } from "@/lib/validation/remote-token-payload";
import { smsTokenMessages } from "@/lib/validation/sms-token";
import { startSandbox, type RunningSandbox } from "@/sandbox/app";
import { remoteSubmission } from "@/test/kit/submissions";
import { attachSmsTokenActionDefinition, attachTokenFromSms, type SmsTokenAttacher } from "./attach-sms-token";
import { issueRemoteToken, type TokenIssuer } from "./issue-token";
import { TOKEN_LIFETIME_MS } from "./lifetime";

/**
 * "Enter the token from the customer's SMS" against a real database (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set) and, where the service's own word matters, the sandbox service: an
 * attempt whose answer never came becomes the token the service holds as pending, entered by a
 * supervisor who did not issue it, audited with both names. A token already used (another
 * customer's success), a token that cannot be this attempt's by its time, a teller, the issuer:
 * each refused, audited, nothing changed.
 */

const keys = scratchPiiKeys();
const API_KEY = "attach-test-key";
/** The issuing calls' limit in these tests: the provider creates any token within it. */
const ISSUE_TIMEOUT_MS = 400;
const silentLog = { info: () => undefined, error: () => undefined };

type People = {
  kumasi: { branchId: string; teller: TokenIssuer; supervisor: SmsTokenAttacher };
  accra: { branchId: string; teller: TokenIssuer; supervisor: SmsTokenAttacher };
};

/** A double of the service for the cases where only its answer matters. */
function serviceKnowing(knownTokens: string[], onCheck?: (token: string) => Promise<void>) {
  const checks: string[] = [];
  const upstream: UpstreamClient = {
    initiateFingerprintToken: () => Promise.reject(new AppError("UPSTREAM_TIMEOUT", "no answer within 10 ms")),
    initiateRemoteToken: () => Promise.reject(new AppError("UPSTREAM_TIMEOUT", "no answer within 10 ms")),
    checkTokenState: async (token) => {
      checks.push(token);
      await onCheck?.(token);
      return knownTokens.includes(token) ? { state: "pending" as const, message: "Pending Token" } : { state: "invalid" as const, message: "Invalid Token" };
    },
    getTokenResult: () => Promise.reject(new Error("not used")),
  };
  return { upstream, checks };
}

function defineAttachTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;
  let db: Database;
  let people: People;
  let sandbox: RunningSandbox;
  let sandboxService: UpstreamClient;

  beforeAll(async () => {
    scratch = await createDatabase();
    db = scratch.opened.db;
    const kumasi = await aBranch(db, { code: "KUM", name: "Kumasi – Adum" });
    const accra = await aBranch(db, { code: "ACC", name: "Accra – Head Office" });
    for (const [role, username, branch] of [
      ["teller", "teller.kumasi", kumasi],
      ["supervisor", "supervisor.kumasi", kumasi],
      ["teller", "teller.accra", accra],
      ["supervisor", "supervisor.accra", accra],
    ] as const) {
      await aStaffMember(db, { role, username, branchId: branch.id, userId: `id-${username}` });
    }
    const teller = (username: string, branch: { id: string; name: string }): TokenIssuer => ({ userId: `id-${username}`, username, branch: { id: branch.id, name: branch.name } });
    const supervisor = (username: string, branchId: string): SmsTokenAttacher => ({ userId: `id-${username}`, username, scope: { kind: "branch", branchId } });
    people = {
      kumasi: { branchId: kumasi.id, teller: teller("teller.kumasi", kumasi), supervisor: supervisor("supervisor.kumasi", kumasi.id) },
      accra: { branchId: accra.id, teller: teller("teller.accra", accra), supervisor: supervisor("supervisor.accra", accra.id) },
    };
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY });
    sandboxService = createUpstreamClient({
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      timeoutMs: 5_000,
      issueTimeoutMs: ISSUE_TIMEOUT_MS,
      logger: { info: () => undefined, warn: () => undefined },
    });
  }, 120_000);

  afterAll(async () => {
    await sandbox?.close();
    await scratch?.destroy();
  });

  async function control(path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${sandbox.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.ok, `${path}: ${response.status}`).toBe(true);
    return response.json();
  }
  const sandboxTokens = async () => ((await control("/sandbox/api/tokens")) as { tokens: { token: string }[] }).tokens.map((record) => record.token);
  const sandboxChecksOf = async (token: string) =>
    ((await control("/sandbox/api/calls")) as { calls: { path: string; token?: string }[] }).calls.filter(
      (call) => call.path === "/api/identification/check_token_status" && call.token === token,
    );

  /** An issuing attempt whose answer never came: outcome unknown, no token. */
  async function attemptWithoutAnswer(teller: TokenIssuer, upstream: UpstreamClient = serviceKnowing([]).upstream): Promise<string> {
    const submission = remoteSubmission({ purpose: "Account opening" });
    await issueRemoteToken(submission, teller, "req-issue", { db, upstream, keys, log: silentLog }).catch((error: unknown) =>
      expect(error).toMatchObject({ code: "UPSTREAM_TIMEOUT" }),
    );
    const [row] = await db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, submission.idempotencyKey));
    expect(row).toMatchObject({ outcome: "outcome_unknown", token: null });
    return row!.id;
  }

  /**
   * A teller's attempt at the sandbox whose answer is lost: the sandbox creates the token and
   * sends its SMS, then never answers. Returns the attempt and the token on the customer's phone.
   */
  async function lostAnswerAtSandbox(teller: TokenIssuer): Promise<{ attemptId: string; smsToken: string }> {
    const before = new Set(await sandboxTokens());
    await control("/sandbox/api/faults", { mode: "hang", path: "/api/identification/initiate/token_verification" });
    const attemptId = await attemptWithoutAnswer(teller, sandboxService);
    const created = (await sandboxTokens()).filter((token) => !before.has(token));
    expect(created).toHaveLength(1);
    return { attemptId, smsToken: created[0]! };
  }

  const rowOf = async (id: string) => (await db.select().from(tokenRequests).where(eq(tokenRequests.id, id)))[0]!;
  const auditOf = async (id: string) => db.select().from(auditEvents).where(eq(auditEvents.subjectId, id));
  const refusalsFor = async (id: string) => (await auditOf(id)).filter((row) => row.action === "token.sms_token_refused").map((row) => row.details);
  const attach = (tokenRequestId: string, token: string, attacher: SmsTokenAttacher, upstream: UpstreamClient, extra: { now?: () => Date } = {}) =>
    attachTokenFromSms({ tokenRequestId, token }, attacher, "req-attach", { db, keys, upstream, issueTimeoutMs: ISSUE_TIMEOUT_MS, ...extra });

  it("a supervisor attaches the token the sandbox sent by SMS; the audit row and the token's history name the teller and the supervisor", async () => {
    const { kumasi } = people;
    const { attemptId, smsToken } = await lostAnswerAtSandbox(kumasi.teller);

    await attach(attemptId, smsToken, kumasi.supervisor, sandboxService);

    const row = await rowOf(attemptId);
    expect(row).toMatchObject({ outcome: "issued", token: smsToken, smsSentToMasked: "024 ••• 4567" });
    // The SMS went to the phone on the form: its ciphertext is bound to sms_sent_to now.
    expect(decryptField(row.smsSentToEncrypted!, `token_requests.sms_sent_to:${row.id}`, keys)).toBe("0241234567");
    // Counted from the attempt: never shown alive longer than it is.
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBe(TOKEN_LIFETIME_MS);
    const attached = (await auditOf(attemptId)).find((event) => event.action === "token.attached_from_sms");
    expect(attached).toMatchObject({ actorUserId: "id-supervisor.kumasi", actorLabel: "supervisor.kumasi", requestId: "req-attach" });
    expect(attached!.details).toMatchObject({
      token: smsToken,
      serviceSaid: "pending",
      issuedBy: "teller.kumasi",
      issuedByUserId: "id-teller.kumasi",
      attachedBy: "supervisor.kumasi",
      attachedByUserId: "id-supervisor.kumasi",
    });
    expect(attached!.details.minutesAfterAttempt).toEqual(expect.any(Number));
    expect(attached!.details.minutesAfterAttempt as number).toBeGreaterThanOrEqual(0);
    const [event] = (await db.select().from(tokenEvents).where(eq(tokenEvents.tokenRequestId, attemptId))).filter((entry) => entry.type === "issue.attached_from_sms");
    expect(event!.details).toMatchObject({ issuedBy: "teller.kumasi", attachedBy: "supervisor.kumasi", serviceSaid: "pending" });
    expect(await sandboxChecksOf(smsToken)).toHaveLength(1);
  });

  it("refuses a token issued straight at the sandbox for another customer, already used and SUCCESSFUL", async () => {
    const { kumasi } = people;
    const { attemptId } = await lostAnswerAtSandbox(kumasi.teller);
    // Someone asks the service directly for another customer's token, and that customer verifies.
    const { idempotencyKey: _key, allowDuplicate: _allow, ...otherCustomer } = remoteSubmission({ phoneNumber: "0551112222", referenceId: "OTHER-CUSTOMER" });
    const other = await sandboxService.initiateRemoteToken(toRemoteTokenRequest(otherCustomer));
    await control(`/sandbox/api/tokens/${other.token}/result`, { status: "SUCCESSFUL" });

    await expect(attach(attemptId, other.token, kumasi.supervisor, sandboxService)).rejects.toMatchObject({
      code: "VALIDATION",
      fieldErrors: { token: [expect.stringContaining("already used for a verification")] },
    });
    expect(await rowOf(attemptId)).toMatchObject({ outcome: "outcome_unknown", token: null, resultStatus: null, transactionNumber: null });
    expect(await refusalsFor(attemptId)).toEqual([{ token: other.token, reason: "already used", issuedBy: "teller.kumasi" }]);
  });

  it("refuses a Kumasi teller's lost pending token on an Accra attempt older than any token's lifetime, without asking the service", async () => {
    const { kumasi, accra } = people;
    const { attemptId: accraAttempt } = await lostAnswerAtSandbox(accra.teller);
    // The Accra attempt was made long ago: the issuing call's limit and a token's 15 minutes are over.
    const longAgo = new Date(Date.now() - ISSUE_TIMEOUT_MS - TOKEN_LIFETIME_MS - 60_000);
    await db.execute(sql`update token_requests set created_at = ${longAgo.toISOString()}::timestamptz where id = ${accraAttempt}::uuid`);
    // Kumasi's answer is lost now: its token is alive and pending at the service.
    const { smsToken: kumasiToken } = await lostAnswerAtSandbox(kumasi.teller);

    await expect(attach(accraAttempt, kumasiToken, accra.supervisor, sandboxService)).rejects.toMatchObject({
      code: "VALIDATION",
      fieldErrors: { token: ["This attempt is too old: any token it made has expired. Issue a new token."] },
    });
    expect(await rowOf(accraAttempt)).toMatchObject({ outcome: "outcome_unknown", token: null });
    expect(await sandboxChecksOf(kumasiToken)).toHaveLength(0);
    expect(await refusalsFor(accraAttempt)).toEqual([{ token: kumasiToken, reason: "the attempt is too old for any of its tokens to be alive", issuedBy: "teller.accra" }]);
  });

  it("refuses when the clock says the attempt was made in the future", async () => {
    const attemptId = await attemptWithoutAnswer(people.kumasi.teller);
    const service = serviceKnowing(["CLOCK1234"]);
    const before = (await rowOf(attemptId)).createdAt;
    await expect(attach(attemptId, "CLOCK1234", people.kumasi.supervisor, service.upstream, { now: () => new Date(before.getTime() - 60_000) })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(service.checks).toEqual([]);
    expect(await rowOf(attemptId)).toMatchObject({ outcome: "outcome_unknown", token: null });
  });

  it("accepts a token up to the end of the window, counted from the attempt", async () => {
    const attemptId = await attemptWithoutAnswer(people.kumasi.teller);
    const service = serviceKnowing(["EDGE12345"]);
    const createdAt = (await rowOf(attemptId)).createdAt;
    const lastMoment = new Date(createdAt.getTime() + ISSUE_TIMEOUT_MS + TOKEN_LIFETIME_MS);
    await attach(attemptId, "EDGE12345", people.kumasi.supervisor, service.upstream, { now: () => lastMoment });
    expect(await rowOf(attemptId)).toMatchObject({ outcome: "issued", token: "EDGE12345" });
    const attached = (await auditOf(attemptId)).find((event) => event.action === "token.attached_from_sms");
    expect(attached!.details.minutesAfterAttempt).toBe(15);
  });

  it("a teller may not attach: the action's own permission refuses before anything is read or asked", async () => {
    const attemptId = await attemptWithoutAnswer(people.kumasi.teller);
    const service = serviceKnowing(["TELLER123"]);
    const staffOf = (role: StaffRole, username: string): Staff => ({
      userId: `id-${username}`,
      username,
      name: username,
      role,
      branch: { id: people.kumasi.branchId, code: "KUM", name: "Kumasi – Adum" },
      permissions: permissionsOf(role),
      session: { id: "s", signInMethod: "password", idleExpiresAt: new Date(Date.now() + 60_000), absoluteExpiresAt: new Date(Date.now() + 60_000) },
    });
    const quiet: ActionLogger = { info: () => undefined, warn: () => undefined, error: () => undefined, child: () => quiet };
    const actionAs = (staff: Staff) =>
      createActionWrapper({ getStaff: async () => staff, logger: quiet })(attachSmsTokenActionDefinition, ({ input, staff: signedIn, scope, requestId }) =>
        attachTokenFromSms(input, { userId: signedIn.userId, username: signedIn.username, scope }, requestId, { db, keys, upstream: service.upstream, issueTimeoutMs: ISSUE_TIMEOUT_MS }),
      );

    // Another teller of the branch, not the issuer: still refused by role.
    await db.insert(authUsers).values({ id: "id-teller2.kumasi", name: "teller2.kumasi", email: "teller2.kumasi@staff.invalid", username: "teller2.kumasi" }).onConflictDoNothing();
    const refused = await actionAs(staffOf("teller", "teller2.kumasi"))({ tokenRequestId: attemptId, token: "TELLER123" });
    expect(refused).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(service.checks).toEqual([]);
    expect(await rowOf(attemptId)).toMatchObject({ outcome: "outcome_unknown", token: null });

    const accepted = await actionAs(staffOf("supervisor", "supervisor.kumasi"))({ tokenRequestId: attemptId, token: "teller123" });
    expect(accepted).toMatchObject({ ok: true, data: { token: "TELLER123" } });
  });

  it("the issuer may not attach their own attempt's token, whatever their role", async () => {
    const attemptId = await attemptWithoutAnswer(people.kumasi.teller);
    const service = serviceKnowing(["MINE12345"]);
    const issuerWithRecover: SmsTokenAttacher = { userId: "id-teller.kumasi", username: "teller.kumasi", scope: { kind: "branch", branchId: people.kumasi.branchId } };
    await expect(attach(attemptId, "MINE12345", issuerWithRecover, service.upstream)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(service.checks).toEqual([]);
    expect(await rowOf(attemptId)).toMatchObject({ outcome: "outcome_unknown", token: null });
    expect(await refusalsFor(attemptId)).toEqual([{ token: "MINE12345", reason: "the attacher issued this attempt", issuedBy: "teller.kumasi" }]);
  });

  it("refuses a token the service does not know, pointing at O/0 and I/1 when the token has them, and audits the refusal", async () => {
    const attemptId = await attemptWithoutAnswer(people.kumasi.teller);
    const service = serviceKnowing([]);
    await expect(attach(attemptId, "O2G51B1O", people.kumasi.supervisor, service.upstream)).rejects.toMatchObject({
      code: "VALIDATION",
      fieldErrors: { token: [expect.stringContaining("does not know this token"), smsTokenMessages.lookAlikes] },
    });
    await expect(attach(attemptId, "XYZQRSTU", people.kumasi.supervisor, service.upstream)).rejects.toMatchObject({
      fieldErrors: { token: [expect.stringContaining("does not know this token")] },
    });
    // The typed spelling alone is asked: Veridesk never tries the swapped ones itself.
    expect(service.checks).toEqual(["O2G51B1O", "XYZQRSTU"]);
    expect(await rowOf(attemptId)).toMatchObject({ outcome: "outcome_unknown", token: null });
    expect(await refusalsFor(attemptId)).toEqual([
      { token: "O2G51B1O", reason: "unknown to the service", issuedBy: "teller.kumasi" },
      { token: "XYZQRSTU", reason: "unknown to the service", issuedBy: "teller.kumasi" },
    ]);
  });

  it("refuses a token already recorded for another attempt without asking the service, and audits the probe", async () => {
    const first = await attemptWithoutAnswer(people.kumasi.teller);
    const second = await attemptWithoutAnswer(people.kumasi.teller);
    const service = serviceKnowing(["TAKEN123"]);
    await attach(first, "TAKEN123", people.kumasi.supervisor, service.upstream);

    await expect(attach(second, "TAKEN123", people.kumasi.supervisor, service.upstream)).rejects.toMatchObject({
      code: "CONFLICT",
      fieldErrors: { token: [expect.stringContaining("already recorded")] },
    });
    expect(service.checks).toEqual(["TAKEN123"]);
    expect(await refusalsFor(second)).toEqual([{ token: "TAKEN123", reason: "already recorded for another verification", issuedBy: "teller.kumasi" }]);
  });

  it("records one token for one attempt when two supervisors type it at once", async () => {
    const attempts = [await attemptWithoutAnswer(people.kumasi.teller), await attemptWithoutAnswer(people.kumasi.teller)];
    const service = serviceKnowing(["RACE1234"]);
    const results = await Promise.allSettled(attempts.map((tokenRequestId) => attach(tokenRequestId, "RACE1234", people.kumasi.supervisor, service.upstream)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: "CONFLICT" } });
    const holders = await db.select({ id: tokenRequests.id }).from(tokenRequests).where(eq(tokenRequests.token, "RACE1234"));
    expect(holders).toHaveLength(1);
  });

  it("refuses an attempt already answered, and another branch's attempt as not found", async () => {
    const service = serviceKnowing(["ANSWERED1", "SECOND001"]);
    const answered = await attemptWithoutAnswer(people.kumasi.teller);
    await attach(answered, "ANSWERED1", people.kumasi.supervisor, service.upstream);
    await expect(attach(answered, "SECOND001", people.kumasi.supervisor, service.upstream)).rejects.toMatchObject({ code: "CONFLICT" });

    const elsewhere = await attemptWithoutAnswer(people.kumasi.teller);
    await expect(attach(elsewhere, "SECOND001", people.accra.supervisor, service.upstream)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const unknownBranch: SmsTokenAttacher = { ...people.kumasi.supervisor, scope: { kind: "branch", branchId: randomUUID() } };
    await expect(attach(elsewhere, "SECOND001", unknownBranch, service.upstream)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(service.checks).not.toContain("SECOND001");
  });
}

forEachDatabase("entering the token from the customer's SMS", (driver) => defineAttachTests(() => openScratchDatabase({ driver, name: "attach" })));
