import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "@/lib/db/types";
import { auditEvents } from "@/lib/db/schema";
import { contactPiiColumns, identityPiiColumns } from "@/lib/pii/columns";
import { planDemoData, type DemoPlan } from "@/scripts/demo-data/plan";
import { writeDemoData } from "@/scripts/demo-data/writer";
import { computeFigures } from "@/lib/review/figures";
import { buildReconciliation } from "@/lib/review/reconciliation";
import { forEachDatabase, openScratchDatabase, queryRows, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { eq } from "drizzle-orm";
import { retentionDecision, type RetentionSettings } from "./retention-policy";
import { runRetentionJob } from "./retention-job";

/**
 * The retention job on tokens of many ages (ADR 0022), on PGlite and (TEST_DATABASE_URL
 * set) PostgreSQL: erased rows hold no ciphertext and no blind index, figures and the end-of-day
 * sheet of an old day do not move, two runs at once erase each row once, one audit event per run.
 */

const keys = scratchPiiKeys();
const now = new Date("2026-11-20T11:00:00.000Z");
const settings: RetentionSettings = { contactDays: 90, identityYears: 5 };
const contactColumns = [...contactPiiColumns.encrypted.map((entry) => entry.column), ...contactPiiColumns.blindIndex.map((entry) => entry.column), ...contactPiiColumns.masked];
const identityColumns = [...identityPiiColumns.encrypted.map((entry) => entry.column), ...identityPiiColumns.blindIndex.map((entry) => entry.column), "id_number_last4"];

type FactsRow = {
  id: string;
  outcome: "pending" | "issued" | "outcome_unknown" | "rejected" | "failed_upstream";
  created_at: string | Date;
  settled_at: string | Date | null;
  expires_at: string | Date | null;
  finished_at: string | Date | null;
  legal_hold_at: string | Date | null;
  contact_erased_at: string | Date | null;
  identity_erased_at: string | Date | null;
};
const date = (value: string | Date | null) => (value === null ? null : new Date(value));

function defineRetentionTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;
  let db: Database;
  let plan: DemoPlan;
  let heldId: string;

  beforeAll(async () => {
    scratch = await createDatabase();
    db = scratch.opened.db;
    // About six and a half years of tokens: some past both clocks, some past the contact clock only, some fresh.
    plan = planDemoData({ now, days: 2_400, totalTokens: 1_600 });
    await writeDemoData(db, plan, { keys });
    // A legal hold on one token well past both clocks.
    const [oldest] = await queryRows<{ id: string }>(db, sql`select id from token_requests order by created_at asc limit 1`);
    heldId = oldest!.id;
    await db.execute(sql`update token_requests set legal_hold_at = ${now.toISOString()}::timestamptz, legal_hold_reason = 'court order 12/2026' where id = ${heldId}::uuid`);
  }, 240_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  const facts = async () =>
    (await queryRows<FactsRow>(db, sql`select id, outcome, created_at, settled_at, expires_at, finished_at, legal_hold_at, contact_erased_at, identity_erased_at from token_requests`)).map((row) => ({
      id: row.id,
      outcome: row.outcome,
      createdAt: date(row.created_at)!,
      settledAt: date(row.settled_at),
      expiresAt: date(row.expires_at),
      finishedAt: date(row.finished_at),
      legalHoldAt: date(row.legal_hold_at),
      contactErasedAt: date(row.contact_erased_at),
      identityErasedAt: date(row.identity_erased_at),
    }));

  it("erases exactly the due rows, once, with two runs at once; figures and an old day's sheet unchanged; one audit event per run", async () => {
    const before = await facts();
    const due = before.map((row) => ({ id: row.id, ...retentionDecision(row, settings, now) }));
    const dueContact = due.filter((row) => row.eraseContact).length;
    const dueIdentity = due.filter((row) => row.eraseIdentity).length;
    // The plan must exercise both clocks and the hold.
    expect(dueIdentity).toBeGreaterThan(20);
    expect(dueContact).toBeGreaterThan(dueIdentity);
    expect(dueContact).toBeLessThan(before.length);
    expect(due.find((row) => row.id === heldId)?.isHeld).toBe(true);

    const oldDay = "2023-06-14";
    const [branch] = await queryRows<{ id: string }>(db, sql`select id from branches order by code limit 1`);
    const figuresQuery = { from: "2020-01-01", to: "2026-11-20", groupBy: "branch" as const };
    const oldDayFigures = { from: oldDay, to: oldDay, groupBy: "teller" as const };
    const figuresBefore = await computeFigures(db, { kind: "all" }, figuresQuery);
    const oldDayBefore = await computeFigures(db, { kind: "all" }, oldDayFigures);
    const sheetBefore = await buildReconciliation(db, { kind: "all" }, { day: oldDay, branch: branch!.id });
    const dryRun = await runRetentionJob(db, { settings, now, dryRun: true, trigger: "command" });
    expect({ contact: dryRun.contactErased, identity: dryRun.identityErased }).toEqual({ contact: dueContact, identity: dueIdentity });
    const auditBefore = await db.select().from(auditEvents).where(eq(auditEvents.action, "retention.run"));
    expect(auditBefore).toHaveLength(0);

    const [first, second] = await Promise.all([
      runRetentionJob(db, { settings, now, trigger: "schedule" }),
      runRetentionJob(db, { settings, now, trigger: "schedule" }),
    ]);
    // Each row erased once: the runs' counts add up to exactly the due rows.
    expect(first.contactErased + second.contactErased).toBe(dueContact);
    expect(first.identityErased + second.identityErased).toBe(dueIdentity);
    expect(first.heldSkipped + second.heldSkipped).toBeGreaterThanOrEqual(1);

    const after = await facts();
    const afterById = new Map(after.map((row) => [row.id, row]));
    for (const row of due) {
      const now_ = afterById.get(row.id)!;
      expect(now_.contactErasedAt !== null, `contact of ${row.id}`).toBe(row.eraseContact);
      expect(now_.identityErasedAt !== null, `identity of ${row.id}`).toBe(row.eraseIdentity);
    }
    expect(afterById.get(heldId)!.contactErasedAt).toBeNull();

    // No erased row holds a ciphertext, a blind index or a masked copy.
    const leftContact = await queryRows<{ n: number }>(
      db,
      sql.raw(`select count(*)::int as n from token_requests where contact_erased_at is not null and (${contactColumns.map((column) => `"${column}" is not null`).join(" or ")})`),
    );
    const leftIdentity = await queryRows<{ n: number }>(
      db,
      sql.raw(`select count(*)::int as n from token_requests where identity_erased_at is not null and (${identityColumns.map((column) => `"${column}" is not null`).join(" or ")} or request_fingerprint <> 'erased')`),
    );
    expect(Number(leftContact[0]!.n)).toBe(0);
    expect(Number(leftIdentity[0]!.n)).toBe(0);
    // …and the rows kept everything else.
    const kept = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from token_requests where branch_id is null or issued_by_user_id is null or created_at is null or id_type is null or purpose is null`);
    expect(Number(kept[0]!.n)).toBe(0);

    expect(await computeFigures(db, { kind: "all" }, figuresQuery)).toEqual(figuresBefore);
    expect(await computeFigures(db, { kind: "all" }, oldDayFigures)).toEqual(oldDayBefore);
    const sheetAfter = await buildReconciliation(db, { kind: "all" }, { day: oldDay, branch: branch!.id });
    expect({ tellers: sheetAfter.tellers, total: sheetAfter.total }).toEqual({ tellers: sheetBefore.tellers, total: sheetBefore.total });
    expect(sheetAfter.followUp.map((row) => [row.id, row.state, row.transactionNumber])).toEqual(sheetBefore.followUp.map((row) => [row.id, row.state, row.transactionNumber]));
    for (const row of sheetAfter.followUp) expect(row.maskedIdNumber).toMatch(/^GHA-|^••••|^erased on /);

    // One audit event per run that ran, with its counts.
    const ran = [first, second].filter((report) => report.status === "ran");
    const events = await db.select().from(auditEvents).where(eq(auditEvents.action, "retention.run"));
    expect(events).toHaveLength(ran.length);
    expect(events.reduce((sum, event) => sum + Number(event.details.contactErased), 0)).toBe(dueContact);

    // A later run finds nothing left and says so.
    const third = await runRetentionJob(db, { settings, now, trigger: "command" });
    expect({ status: third.status, contact: third.contactErased, identity: third.identityErased }).toEqual({ status: "ran", contact: 0, identity: 0 });
    expect(await db.select().from(auditEvents).where(eq(auditEvents.action, "retention.run"))).toHaveLength(ran.length + 1);
  });
}

forEachDatabase("retention job", (driver) => defineRetentionTests(() => openScratchDatabase({ driver, name: "retention" })));
