import { eq } from "drizzle-orm";
import { verifyAuditChain } from "@/lib/audit/chain";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import type { Database } from "@/lib/db/types";
import { auditEvents, tokenEvents, tokenRequests } from "@/lib/db/schema";
import { aBranch, aStaffMember } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { createUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { startSandbox, type RunningSandbox } from "@/sandbox/app";
import { remoteSubmission } from "@/test/kit/submissions";
import { attachTokenFromSms, type SmsTokenAttacher } from "./attach-sms-token";
import { issueRemoteToken, type TokenIssuer } from "./issue-token";
import { RecordRetryQueue } from "./record-retry";
import { listAttemptsWhoseTokenMayExist, settleStalePendingAttempts } from "./stale-attempts";

/**
 * The service issues a token and the database refuses to record it (here a trigger raising the
 * disk-full error, SQLSTATE 53100, the error a full disk gives; the drill in test/drills does it
 * with a real full disk): the token is kept in memory and written when the database takes writes
 * again; if the process ends meanwhile, the attempt becomes "outcome unknown" by itself and the
 * token on the customer's SMS attaches. Counted at the sandbox: nothing issued is lost.
 */

const keys = scratchPiiKeys();
const API_KEY = "unrecorded-test-key";
const ISSUE_TIMEOUT_MS = 2_000;
const quietLog = { info: () => undefined, error: () => undefined };

function defineTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;
  let db: Database;
  let teller: TokenIssuer;
  let supervisor: SmsTokenAttacher;
  let sandbox: RunningSandbox;
  let upstream: UpstreamClient;

  beforeAll(async () => {
    scratch = await createDatabase();
    db = scratch.opened.db;
    const branch = await aBranch(db, { code: "TMA", name: "Tema – Harbour" });
    await aStaffMember(db, { role: "teller", username: "teller.tema", branchId: branch.id, userId: "id-teller.tema" });
    await aStaffMember(db, { role: "supervisor", username: "supervisor.tema", branchId: branch.id, userId: "id-supervisor.tema" });
    teller = { userId: "id-teller.tema", username: "teller.tema", branch: { id: branch.id, name: branch.name } };
    supervisor = { userId: "id-supervisor.tema", username: "supervisor.tema", scope: { kind: "branch", branchId: branch.id } };
    await scratch.asOwner([
      `CREATE FUNCTION test_refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'could not extend file "base/5/16385": No space left on device' USING ERRCODE = 'disk_full'; END $$`,
    ]);
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY });
    upstream = createUpstreamClient({
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      timeoutMs: 5_000,
      issueTimeoutMs: ISSUE_TIMEOUT_MS,
      logger: { info: () => undefined, warn: () => undefined },
    });
  }, 120_000);

  afterEach(async () => {
    await diskFreed();
  });

  afterAll(async () => {
    await sandbox?.close();
    await scratch?.destroy();
  });

  /** The answer's UPDATE (or, `before: true`, the attempt's INSERT) fails as on a full disk. */
  const diskFull = (options: { before?: boolean } = {}) =>
    scratch.asOwner([
      options.before
        ? "CREATE TRIGGER test_disk_full BEFORE INSERT ON token_requests FOR EACH ROW EXECUTE FUNCTION test_refuse_write()"
        : "CREATE TRIGGER test_disk_full BEFORE UPDATE ON token_requests FOR EACH ROW WHEN (NEW.outcome = 'issued') EXECUTE FUNCTION test_refuse_write()",
    ]);
  const diskFreed = () => scratch.asOwner(["DROP TRIGGER IF EXISTS test_disk_full ON token_requests"]);

  const sandboxTokens = async () => {
    const response = await fetch(`${sandbox.url}/sandbox/api/tokens`);
    return ((await response.json()) as { tokens: { token: string }[] }).tokens.map((record) => record.token);
  };
  const rowOf = async (idempotencyKey: string) => (await db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, idempotencyKey)))[0]!;
  const issueWhileFull = async (queue: RecordRetryQueue) => {
    const submission = remoteSubmission({ purpose: "Account opening" });
    const before = new Set(await sandboxTokens());
    const error = await issueRemoteToken(submission, teller, "req-full", { db, upstream, keys, log: quietLog, recordQueue: queue }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    const issuedAtSandbox = (await sandboxTokens()).filter((token) => !before.has(token));
    expect(issuedAtSandbox).toHaveLength(1);
    return { error, row: await rowOf(submission.idempotencyKey), token: issuedAtSandbox[0]!, submission };
  };

  it("keeps an issued token the database refused, tells the teller it may exist, and records it once the database writes again", async () => {
    const queue = new RecordRetryQueue({ firstDelayMs: 60_000, maxDelayMs: 60_000 }, quietLog);
    await diskFull();
    const { error, row, token } = await issueWhileFull(queue);

    expect(error).toMatchObject({ code: "TOKEN_NOT_RECORDED_YET", subjectId: row.id });
    expect((error as Error & { userMessage: string }).userMessage).toMatch(/issued the token, but the bank's database is not answering/);
    expect((error as Error & { userMessage: string }).userMessage).toMatch(/Do not issue another token/);
    expect(row).toMatchObject({ outcome: "pending", token: null });
    expect(queue.describe()).toMatchObject([{ tokenRequestId: row.id, what: "issued" }]);

    // Still full: the retry fails and keeps the answer.
    await queue.flush();
    expect(queue.size).toBe(1);
    expect((await rowOf(row.idempotencyKey)).token).toBeNull();

    await diskFreed();
    await queue.flush();
    expect(queue.size).toBe(0);
    const recorded = await rowOf(row.idempotencyKey);
    expect(recorded).toMatchObject({ outcome: "issued", token });
    expect(recorded.expiresAt!.getTime() - recorded.issuedAt!.getTime()).toBe(15 * 60_000);
    const events = await db.select().from(tokenEvents).where(eq(tokenEvents.tokenRequestId, row.id));
    expect(events.filter((event) => event.type === "issue.issued")).toEqual([expect.objectContaining({ details: expect.objectContaining({ recordedLate: true }) })]);
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.subjectId, row.id));
    expect(audit.filter((event) => event.action === "token.issue")).toHaveLength(1);

    // A second flush (a write whose answer was lost, run again) adds nothing.
    queue.add({ tokenRequestId: row.id, what: "issued", write: () => Promise.resolve() }, new Error("again"));
    await queue.flush();
    expect(await db.select().from(tokenEvents).where(eq(tokenEvents.tokenRequestId, row.id))).toHaveLength(events.length);
  });

  it("says 'nothing was issued' when the database refuses the attempt before the call, and calls nobody", async () => {
    await diskFull({ before: true });
    const before = await sandboxTokens();
    const submission = remoteSubmission({ purpose: "Account opening" });
    const error = await issueRemoteToken(submission, teller, "req-before", { db, upstream, keys, log: quietLog, recordQueue: new RecordRetryQueue(undefined, quietLog) }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: "DATABASE_UNAVAILABLE" });
    expect((error as Error & { userMessage: string }).userMessage).toMatch(/^The bank's database is not answering — nothing was issued/);
    expect(await sandboxTokens()).toEqual(before);
  });

  it("an answer recorded after the sweep gave up on it still lands: outcome unknown becomes the token", async () => {
    const queue = new RecordRetryQueue({ firstDelayMs: 60_000, maxDelayMs: 60_000 }, quietLog);
    await diskFull();
    const { row, token } = await issueWhileFull(queue);
    const marked = await settleStalePendingAttempts(db, { now: new Date(Date.now() + 40_000), issueTimeoutMs: ISSUE_TIMEOUT_MS });
    expect(marked).toContain(row.id);
    expect(await rowOf(row.idempotencyKey)).toMatchObject({ outcome: "outcome_unknown", token: null });

    await diskFreed();
    await queue.flush();
    expect(await rowOf(row.idempotencyKey)).toMatchObject({ outcome: "issued", token, errorCode: null });
  });

  it("a crash loses the kept answer, not the token: the attempt turns outcome unknown by itself and the customer's SMS token attaches", async () => {
    // This queue is dropped unflushed, as a killed process drops its memory.
    const { error, row, token, submission } = await (async () => {
      await diskFull();
      return issueWhileFull(new RecordRetryQueue({ firstDelayMs: 60_000, maxDelayMs: 60_000 }, quietLog));
    })();
    expect(error).toMatchObject({ code: "TOKEN_NOT_RECORDED_YET" });
    await diskFreed();

    // Not before the issuing timeout (and its margin) has passed.
    expect(await settleStalePendingAttempts(db, { now: new Date(), issueTimeoutMs: ISSUE_TIMEOUT_MS })).not.toContain(row.id);
    expect(await settleStalePendingAttempts(db, { now: new Date(Date.now() + 40_000), issueTimeoutMs: ISSUE_TIMEOUT_MS })).toEqual([row.id]);
    const unknown = await rowOf(row.idempotencyKey);
    // Its own code: no timeout was seen, only the record of the answer is missing.
    expect(unknown).toMatchObject({ outcome: "outcome_unknown", token: null, errorCode: "ISSUE_OUTCOME_UNKNOWN" });
    const events = await db.select().from(tokenEvents).where(eq(tokenEvents.tokenRequestId, row.id));
    expect(events).toContainEqual(expect.objectContaining({ type: "issue.outcome_unknown", details: expect.objectContaining({ errorCode: "ISSUE_OUTCOME_UNKNOWN" }) }));
    // The sweep answers for what it marked in the audit trail, as the system, in the same transaction.
    const swept = (await db.select().from(auditEvents).where(eq(auditEvents.action, "token.outcome_unknown_swept"))).filter((event) =>
      ((event.details as { tokenRequestIds?: string[] }).tokenRequestIds ?? []).includes(row.id),
    );
    expect(swept).toHaveLength(1);
    expect(swept[0]).toMatchObject({ actorUserId: null, actorLabel: "stale-attempt sweep", subjectType: "token_request", subjectId: row.id, branchId: row.branchId, details: { count: 1, tokenRequestIds: [row.id], errorCode: "ISSUE_OUTCOME_UNKNOWN" } });
    // A second sweep finds nothing and writes nothing.
    const sweepEvents = async () => (await db.select().from(auditEvents).where(eq(auditEvents.action, "token.outcome_unknown_swept"))).length;
    const before = await sweepEvents();
    expect(await settleStalePendingAttempts(db, { now: new Date(Date.now() + 40_000), issueTimeoutMs: ISSUE_TIMEOUT_MS })).toEqual([]);
    expect(await sweepEvents()).toBe(before);
    expect((await verifyAuditChain(db)).firstBreak).toBeNull();
    // The same form sent again is told the same truth, and sent to the attempt; nothing is issued.
    const tokensBeforeReplay = (await sandboxTokens()).length;
    const replayed = await issueRemoteToken(submission, teller, "req-replay", { db, upstream, keys, log: quietLog }).catch((thrown: unknown) => thrown);
    expect(replayed).toMatchObject({ code: "ISSUE_OUTCOME_UNKNOWN", subjectId: row.id, userMessage: expect.stringMatching(/may have been issued/) });
    expect((await sandboxTokens()).length).toBe(tokensBeforeReplay);

    // The Operations page and the gauge list it until its token is recorded.
    const mayExist = await listAttemptsWhoseTokenMayExist(db, { now: new Date(), issueTimeoutMs: ISSUE_TIMEOUT_MS });
    expect(mayExist.attempts).toContainEqual(expect.objectContaining({ id: row.id, outcome: "outcome_unknown", kind: "remote", branchName: "Tema – Harbour", smsEntryUntil: expect.any(Date) }));

    await attachTokenFromSms({ tokenRequestId: row.id, token }, supervisor, "req-attach", { db, upstream, keys, issueTimeoutMs: ISSUE_TIMEOUT_MS });
    expect((await listAttemptsWhoseTokenMayExist(db, { now: new Date(), issueTimeoutMs: ISSUE_TIMEOUT_MS })).attempts.map((attempt) => attempt.id)).not.toContain(row.id);
    expect(await rowOf(row.idempotencyKey)).toMatchObject({ outcome: "issued", token });

    // Every token the sandbox issued in this file is recorded.
    const recorded = (await db.select({ token: tokenRequests.token }).from(tokenRequests)).map((entry) => entry.token).filter(Boolean);
    expect(new Set(recorded)).toEqual(new Set(await sandboxTokens()));
  });
}

forEachDatabase("an issued token the database refused to record", (driver) => defineTests(() => openScratchDatabase({ driver, name: "unrecorded" })));
