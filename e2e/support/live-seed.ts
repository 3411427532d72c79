/**
 * Seeds the live specs' fixtures (see live-fixtures.ts) into the e2e database, after the demo seed
 * and before `next start` opens it (scripts/db-prepare.ts runs it there, in the same process as the
 * migrations and the seed). Test runs only: refuses anything but APP_ENV=test. Idempotent.
 *
 *   tsx --conditions=react-server e2e/support/live-seed.ts
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import type { Database } from "@/lib/db/types";
import { authUsers, riskRuleVersions, staffProfiles, tokenEvents, tokenRequests } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { computeIdNumberIndex, computeRequestFingerprint, encryptContactFields, encryptField, getPiiKeys, lastFourOf } from "@/lib/pii";
import { retentionSettingsFrom, runRetentionJob } from "@/lib/compliance/retention-job";
import { liveFixtures } from "./live-fixtures";
import { isMainModule } from "@/scripts/support/main-module";

/**
 * Writes the fixtures into `db` (default: the configured database, getDb) and runs the retention
 * job; throws on failure. Leaves the database open for the caller to close (scripts/db-prepare.ts
 * goes on with it).
 */
export async function seedLiveFixtures(given?: Database): Promise<void> {
  if (env().APP_ENV !== "test") throw new Error("e2e/support/live-seed.ts writes test fixtures and runs only with APP_ENV=test.");
  const db = given ?? (await getDb());
  const now = Date.now();
  // The test bank's branches are open round the clock. Rule 7's "tokens outside opening hours"
  // would otherwise make every token of a run before 08:00 or after 17:00 a teller's case, whose
  // evidence hold then keeps the customers' data from an erasure a spec asks for: a suite that
  // passed or failed with the time of day.
  await db
    .update(riskRuleVersions)
    .set({ params: sql`${riskRuleVersions.params} || '{"openHour": 0, "closeHour": 24}'::jsonb` })
    .where(and(eq(riskRuleVersions.ruleKey, "teller_failure_rate"), eq(riskRuleVersions.version, 1)));
  const ownerOf = async (username: string) => {
    const [found] = await db
      .select({ userId: authUsers.id, branchId: staffProfiles.branchId })
      .from(authUsers)
      .innerJoin(staffProfiles, eq(staffProfiles.userId, authUsers.id))
      .where(eq(authUsers.username, username));
    if (!found) throw new Error(`demo account ${username} is missing: run the demo seed first`);
    return found;
  };

  const expired = liveFixtures.expiredRemote;
  const expiredOwner = await ownerOf(expired.owner);
  const issuedAt = new Date(now - 16 * 60_000);
  const encrypt = (id: string, column: string, value: string) => encryptField(value, `token_requests.${column}:${id}`);
  const insertedExpired = await db
    .insert(tokenRequests)
    .values({
      id: expired.id,
      idempotencyKey: randomUUID(),
      requestFingerprint: computeRequestFingerprint({ fixture: expired.id }),
      kind: "remote",
      idType: "GHANA_CARD",
      issuedByUserId: expiredOwner.userId,
      branchId: expiredOwner.branchId,
      createdAt: new Date(issuedAt.getTime() - 1_000),
      ...encryptContactFields(expired.id, { reference: expired.referenceId, phoneNumber: expired.phoneNumber, smsSentTo: expired.phoneNumber }, getPiiKeys()),
      purpose: expired.purpose,
      options: { sendSms: true, skipInstructions: false, captureLocation: false, captureHomeAddress: false, livenessOnly: false },
      idNumberEncrypted: encrypt(expired.id, "id_number", expired.ghanaCardNumber),
      idNumberIndex: computeIdNumberIndex(expired.ghanaCardNumber),
      idNumberLast4: lastFourOf(expired.ghanaCardNumber),
      outcome: "issued",
      settledAt: issuedAt,
      token: `${expired.tokenPrefix}${Math.random().toString(36).slice(2, 7).toUpperCase()}`,
      issuedAt,
      expiresAt: new Date(issuedAt.getTime() + 15 * 60_000),
    })
    .onConflictDoNothing()
    .returning({ id: tokenRequests.id });
  if (insertedExpired.length > 0) {
    await db.insert(tokenEvents).values([
      { tokenRequestId: expired.id, at: new Date(issuedAt.getTime() - 1_000), type: "issue.requested", details: { fixture: true } },
      { tokenRequestId: expired.id, at: issuedAt, type: "issue.issued", details: { fixture: true } },
    ]);
  }

  const unknown = liveFixtures.unknownFingerprint;
  const unknownOwner = await ownerOf(unknown.owner);
  const attemptedAt = new Date(now - 5 * 60_000);
  const insertedUnknown = await db
    .insert(tokenRequests)
    .values({
      id: unknown.id,
      idempotencyKey: randomUUID(),
      requestFingerprint: computeRequestFingerprint({ fixture: unknown.id }),
      kind: "fingerprint",
      idType: "GHANA_CARD",
      issuedByUserId: unknownOwner.userId,
      branchId: unknownOwner.branchId,
      createdAt: attemptedAt,
      ...encryptContactFields(unknown.id, { reference: unknown.referenceId }, getPiiKeys()),
      purpose: "KYC refresh",
      idNumberEncrypted: encrypt(unknown.id, "id_number", unknown.ghanaCardNumber),
      idNumberIndex: computeIdNumberIndex(unknown.ghanaCardNumber),
      idNumberLast4: lastFourOf(unknown.ghanaCardNumber),
      outcome: "outcome_unknown",
      errorCode: "UPSTREAM_TIMEOUT",
      settledAt: new Date(attemptedAt.getTime() + 10_000),
    })
    .onConflictDoNothing()
    .returning({ id: tokenRequests.id });
  if (insertedUnknown.length > 0) {
    await db.insert(tokenEvents).values([
      { tokenRequestId: unknown.id, at: attemptedAt, type: "issue.requested", details: { fixture: true } },
      { tokenRequestId: unknown.id, at: new Date(attemptedAt.getTime() + 10_000), type: "issue.outcome_unknown", details: { fixture: true } },
    ]);
  }
  // Retention (ADR 0022): two tokens seven years old, one under a legal hold; then the retention job itself.
  let insertedOld = 0;
  for (const old of [liveFixtures.erasedOld, liveFixtures.heldOld]) {
    const owner = await ownerOf(old.owner);
    const endedAt = new Date(now - old.yearsAgo * 365.25 * 24 * 60 * 60_000);
    const createdAt = new Date(endedAt.getTime() - 90_000);
    const isHeld = old.id === liveFixtures.heldOld.id;
    const inserted = await db
      .insert(tokenRequests)
      .values({
        id: old.id,
        idempotencyKey: randomUUID(),
        requestFingerprint: computeRequestFingerprint({ fixture: old.id }),
        kind: "fingerprint",
        idType: "GHANA_CARD",
        issuedByUserId: owner.userId,
        branchId: owner.branchId,
        createdAt,
        ...encryptContactFields(old.id, { reference: old.referenceId }, getPiiKeys()),
        purpose: old.purpose,
        branchName: "Kumasi – Adum",
        idNumberEncrypted: encrypt(old.id, "id_number", old.ghanaCardNumber),
        idNumberIndex: computeIdNumberIndex(old.ghanaCardNumber),
        idNumberLast4: lastFourOf(old.ghanaCardNumber),
        consentAttestedAt: createdAt,
        consentWordingVersion: 1,
        outcome: "issued",
        settledAt: createdAt,
        token: old.token,
        issuedAt: createdAt,
        expiresAt: new Date(createdAt.getTime() + 15 * 60_000),
        liveState: "successful",
        nextPollAt: null,
        resultStatus: "SUCCESSFUL",
        transactionNumber: `TXN-${old.token}`,
        resultAt: endedAt,
        finishedAt: endedAt,
        ...(isHeld ? { legalHoldAt: new Date(now - 24 * 60 * 60_000), legalHoldByUserId: owner.userId, legalHoldReason: "EOCO inquiry 2026/14" } : {}),
      })
      .onConflictDoNothing()
      .returning({ id: tokenRequests.id });
    insertedOld += inserted.length;
  }
  const retention = await runRetentionJob(db, { settings: retentionSettingsFrom(env()), trigger: "command" });
  console.log(`live fixtures: ${insertedExpired.length + insertedUnknown.length + insertedOld} seeded; retention job erased contact data of ${retention.contactErased}, identity data of ${retention.identityErased}`);
}

if (isMainModule(import.meta.url)) {
  try {
    await seedLiveFixtures();
  } catch (error) {
    console.error(`e2e/support/live-seed.ts failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    await closeDb();
  }
}
