import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenedDatabase } from "@/lib/db/client";
import { auditEvents, authUsers, branches, tokenEvents, tokenRequests } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { decryptField, keyIdOf, type PiiKeys } from "@/lib/pii";
import type { UpstreamClient } from "@/lib/upstream";
import { remoteSubmission } from "./testing/submissions";
import { attachTokenFromSms, type SmsTokenAttacher } from "./attach-sms-token";
import { issueRemoteToken, type TokenIssuer } from "./issue-token";

/**
 * "Enter the token from the customer's SMS" against a real embedded database: an issuing call
 * that never answered becomes the token the service confirms; every refusal is audited, and a
 * token is never recorded for two attempts, even when two people type it at once.
 */

let opened: OpenedDatabase;
let dataDir: string;
let teller: TokenIssuer;
let attacher: SmsTokenAttacher;

const keys: PiiKeys = (() => {
  const encryptionKey = randomBytes(32);
  return { encryptionKey, indexKey: randomBytes(32), encryptionKeyId: keyIdOf(encryptionKey) };
})();

/** What the service knows: tokens it created, and every check it was asked. */
function serviceKnowing(knownTokens: string[]) {
  const checks: string[] = [];
  const upstream: UpstreamClient = {
    initiateFingerprintToken: () => Promise.reject(new AppError("UPSTREAM_TIMEOUT", "no answer within 10 ms")),
    initiateRemoteToken: () => Promise.reject(new AppError("UPSTREAM_TIMEOUT", "no answer within 10 ms")),
    checkTokenState: async (token) => {
      checks.push(token);
      return knownTokens.includes(token) ? { state: "pending" as const, message: "Pending Token" } : { state: "invalid" as const, message: "Invalid Token" };
    },
    getTokenResult: () => Promise.reject(new Error("not used")),
  };
  return { upstream, checks };
}

/** An issuing attempt whose answer never came: outcome unknown, no token. */
async function attemptWithoutAnswer(): Promise<string> {
  const submission = remoteSubmission({ purpose: "Account opening" });
  const { upstream } = serviceKnowing([]);
  await issueRemoteToken(submission, teller, "req-issue", { db: opened.db, upstream, keys, log: { info: () => undefined, error: () => undefined } }).catch(
    (error: unknown) => expect(error).toMatchObject({ code: "UPSTREAM_TIMEOUT" }),
  );
  const [row] = await opened.db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, submission.idempotencyKey));
  expect(row).toMatchObject({ outcome: "outcome_unknown", token: null });
  return row!.id;
}

async function refusalsFor(tokenRequestId: string) {
  const rows = await opened.db.select().from(auditEvents).where(eq(auditEvents.subjectId, tokenRequestId));
  return rows.filter((row) => row.action === "token.sms_token_refused").map((row) => row.details);
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "veridesk-attach-"));
  opened = await openDatabase({ pgliteDataDir: path.join(dataDir, "pglite"), label: "attach-sms-token integration test" });
  const [branch] = await opened.db.insert(branches).values({ code: "KSI", name: "Kumasi – Adum" }).returning();
  await opened.db.insert(branches).values({ code: "ACC", name: "Accra – Head Office" });
  await opened.db.insert(authUsers).values({ id: "teller-1", name: "Ama Teller", email: "teller-1@staff.invalid", username: "teller-1" });
  teller = { userId: "teller-1", username: "teller-1", branch: { id: branch!.id, name: branch!.name } };
  attacher = { userId: "teller-1", username: "teller-1", scope: { kind: "branch", branchId: branch!.id } };
});

afterAll(async () => {
  await opened?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("entering the token from the customer's SMS", () => {
  it("attaches a token the service knows, counts the 15 minutes from the attempt, and hands it to the watcher", async () => {
    const attemptId = await attemptWithoutAnswer();
    const service = serviceKnowing(["SMS1TOKEN"]);
    const attachedAt = new Date(Date.now() + 60_000);

    await attachTokenFromSms({ tokenRequestId: attemptId, token: "SMS1TOKEN" }, attacher, "req-attach", { db: opened.db, keys, upstream: service.upstream, now: () => attachedAt });

    const [row] = await opened.db.select().from(tokenRequests).where(eq(tokenRequests.id, attemptId));
    expect(row).toMatchObject({ outcome: "issued", token: "SMS1TOKEN", smsSentToMasked: "024 ••• 4567" });
    // The SMS went to the phone on the form: its ciphertext is bound to sms_sent_to now.
    expect(decryptField(row!.smsSentToEncrypted!, `token_requests.sms_sent_to:${row!.id}`, keys)).toBe("0241234567");
    expect(row!.expiresAt!.getTime() - row!.createdAt.getTime()).toBe(15 * 60_000);
    expect(row!.nextPollAt).toEqual(attachedAt);
    const events = await opened.db.select().from(tokenEvents).where(eq(tokenEvents.tokenRequestId, attemptId));
    expect(events.map((event) => event.type)).toContain("issue.attached_from_sms");
    const audit = await opened.db.select().from(auditEvents).where(eq(auditEvents.subjectId, attemptId));
    expect(audit.find((event) => event.action === "token.attached_from_sms")).toMatchObject({ actorLabel: "teller-1", requestId: "req-attach" });
    expect(service.checks).toEqual(["SMS1TOKEN"]);
  });

  it("refuses a token the service does not know, changes nothing, and audits the refusal", async () => {
    const attemptId = await attemptWithoutAnswer();
    const service = serviceKnowing([]);
    await expect(attachTokenFromSms({ tokenRequestId: attemptId, token: "NOSUCH99" }, attacher, "req", { db: opened.db, keys, upstream: service.upstream })).rejects.toMatchObject({
      code: "VALIDATION",
    });
    expect((await opened.db.select().from(tokenRequests).where(eq(tokenRequests.id, attemptId)))[0]).toMatchObject({ outcome: "outcome_unknown", token: null });
    expect(await refusalsFor(attemptId)).toEqual([{ token: "NOSUCH99", reason: "unknown to the service" }]);
  });

  it("refuses a token already recorded for another attempt without asking the service, and audits the probe", async () => {
    const first = await attemptWithoutAnswer();
    const second = await attemptWithoutAnswer();
    const service = serviceKnowing(["TAKEN123"]);
    await attachTokenFromSms({ tokenRequestId: first, token: "TAKEN123" }, attacher, "req", { db: opened.db, keys, upstream: service.upstream });

    await expect(attachTokenFromSms({ tokenRequestId: second, token: "TAKEN123" }, attacher, "req", { db: opened.db, keys, upstream: service.upstream })).rejects.toMatchObject({
      code: "CONFLICT",
      fieldErrors: { token: [expect.stringContaining("already recorded")] },
    });
    expect(service.checks).toEqual(["TAKEN123"]);
    expect(await refusalsFor(second)).toEqual([{ token: "TAKEN123", reason: "already recorded for another verification" }]);
  });

  it("records one token for one attempt when two people type it at once", async () => {
    const attempts = [await attemptWithoutAnswer(), await attemptWithoutAnswer()];
    const service = serviceKnowing(["RACE1234"]);
    const results = await Promise.allSettled(
      attempts.map((tokenRequestId) => attachTokenFromSms({ tokenRequestId, token: "RACE1234" }, attacher, "req", { db: opened.db, keys, upstream: service.upstream })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: "CONFLICT" } });
    const holders = await opened.db.select({ id: tokenRequests.id }).from(tokenRequests).where(eq(tokenRequests.token, "RACE1234"));
    expect(holders).toHaveLength(1);
  });

  it("refuses an attempt already answered, and another branch's attempt as not found", async () => {
    const service = serviceKnowing(["ANSWERED1", "SECOND001"]);
    const answered = await attemptWithoutAnswer();
    await attachTokenFromSms({ tokenRequestId: answered, token: "ANSWERED1" }, attacher, "req", { db: opened.db, keys, upstream: service.upstream });
    await expect(attachTokenFromSms({ tokenRequestId: answered, token: "SECOND001" }, attacher, "req", { db: opened.db, keys, upstream: service.upstream })).rejects.toMatchObject({
      code: "CONFLICT",
    });

    const elsewhere = await attemptWithoutAnswer();
    const otherBranch: SmsTokenAttacher = { ...attacher, scope: { kind: "branch", branchId: randomUUID() } };
    await expect(attachTokenFromSms({ tokenRequestId: elsewhere, token: "SECOND001" }, otherBranch, "req", { db: opened.db, keys, upstream: service.upstream })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(service.checks).not.toContain("SECOND001");
  });
});
