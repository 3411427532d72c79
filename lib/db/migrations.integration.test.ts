import fs from "node:fs";
import path from "node:path";
import { asc, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDatabase } from "./types";
import { forEachDatabase, makeScratchDatabase, refusalMessages, type ScratchDriver, type UnopenedScratchDatabase } from "@/test/kit/database";
import { auditEvents, branches } from "./schema";

/**
 * The committed migrations, applied to a fresh PGlite and a fresh PostgreSQL database, then the
 * same tests on both: what passes here behaves the same in local runs and in production.
 */

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
// Opening a new PGlite directory (initdb + migrations) takes several seconds here.
const SLOW = 60_000;

const journalTags = (
  JSON.parse(fs.readFileSync(path.join(process.cwd(), "drizzle", "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  }
).entries.map((entry) => entry.tag);

function defineSharedDatabaseTests(driver: ScratchDriver): void {
  let testDatabase: UnopenedScratchDatabase;
  let opened: OpenedDatabase;

  beforeAll(async () => {
    testDatabase = await makeScratchDatabase({ driver, name: "migrations" });
    opened = await testDatabase.open();
  }, SLOW);

  afterAll(async () => {
    await opened?.close();
    await testDatabase?.destroy();
  });

  it("applies every committed migration to a new database, and none the second time", async () => {
    expect(opened.migrations).toMatchObject({ applied: journalTags, alreadyApplied: 0 });

    await opened.close();
    opened = await testDatabase.open();

    expect(opened.migrations).toMatchObject({ applied: [], alreadyApplied: journalTags.length });
  }, SLOW);

  it("stores branches and audit events and reads them back joined and in order", async () => {
    const { db } = opened;
    const [north, south] = await db
      .insert(branches)
      .values([
        { code: "NTH", name: "North" },
        { code: "STH", name: "South" },
      ])
      .returning();
    if (!north || !south) throw new Error("branches were not returned");
    expect(north.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(north.createdAt).toBeInstanceOf(Date);

    await db.transaction(async (tx) => {
      await tx.insert(auditEvents).values([
        {
          actorUserId: "u1",
          actorLabel: "alice",
          action: "auth.sign_in",
          branchId: north.id,
          requestId: "req-1",
        },
        {
          actorUserId: "u1",
          actorLabel: "alice",
          action: "staff.update",
          subjectType: "staff",
          subjectId: "u2",
          branchId: south.id,
          details: { changed: ["role"], note: "promoted" },
        },
      ]);
      // A time the writer gives is not kept: the chain trigger dates every event itself.
      await tx.insert(auditEvents).values({ at: new Date("2020-01-01T09:00:00Z"), action: "system.start" });
    });

    const rows = await db
      .select({
        action: auditEvents.action,
        actorLabel: auditEvents.actorLabel,
        branchName: branches.name,
        details: auditEvents.details,
        at: auditEvents.at,
      })
      .from(auditEvents)
      .leftJoin(branches, eq(auditEvents.branchId, branches.id))
      .orderBy(desc(auditEvents.chainSeq));

    expect(rows).toEqual([
      { action: "system.start", actorLabel: null, branchName: null, details: {}, at: expect.any(Date) },
      {
        action: "staff.update",
        actorLabel: "alice",
        branchName: "South",
        details: { changed: ["role"], note: "promoted" },
        at: expect.any(Date),
      },
      { action: "auth.sign_in", actorLabel: "alice", branchName: "North", details: {}, at: expect.any(Date) },
    ]);
    expect(rows[0]!.at.getFullYear()).not.toBe(2020);

    const ids = await db.select({ id: auditEvents.id }).from(auditEvents).orderBy(asc(auditEvents.id));
    expect(ids.map((row) => typeof row.id)).toEqual(["number", "number", "number"]);
  });

  it("rolls back a failed transaction entirely", async () => {
    const { db } = opened;
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(branches).values({ code: "TMP", name: "Never kept" });
        await tx.insert(branches).values({ code: "TMP", name: "Duplicate code" });
      }),
    ).rejects.toThrow();
    expect(await db.select().from(branches).where(eq(branches.code, "TMP"))).toEqual([]);
  });

  it("refuses to change or remove audit events, and to delete a branch that has some", async () => {
    const { db } = opened;
    const [before] = await db.select({ count: sql<number>`count(*)::int` }).from(auditEvents);

    expect(await refusalMessages(db.update(auditEvents).set({ action: "rewritten" }))).toMatch(
      // The owner meets the trigger; the app role (CI, ADR 0019) is refused the privilege first.
      /audit_events is append-only: UPDATE is not allowed|permission denied for table audit_events/,
    );
    expect(await refusalMessages(db.delete(auditEvents).where(eq(auditEvents.action, "auth.sign_in")))).toMatch(
      // The owner meets the trigger; the app role (CI, ADR 0019) is refused the privilege first.
      /audit_events is append-only: DELETE is not allowed|permission denied for table audit_events/,
    );
    expect(await refusalMessages(db.execute(sql`TRUNCATE audit_events`))).toMatch(
      // The owner meets the trigger; the app role (CI, ADR 0019) is refused the privilege first.
      /audit_events is append-only: TRUNCATE is not allowed|permission denied for table audit_events/,
    );
    expect(await refusalMessages(db.delete(branches).where(eq(branches.code, "NTH")))).toMatch(/foreign key/);

    const [after] = await db.select({ count: sql<number>`count(*)::int` }).from(auditEvents);
    expect(after).toEqual(before);
    const actions = await db.select({ action: auditEvents.action }).from(auditEvents).orderBy(auditEvents.at);
    expect(actions.map((row) => row.action)).toEqual(["auth.sign_in", "staff.update", "system.start"]);
  });
}

forEachDatabase("migrations and queries", defineSharedDatabaseTests);

if (!testDatabaseUrl) {
  // A skipped suite is easy to miss in a green run: say why, in the output itself.
  console.warn(
    'PostgreSQL migration tests SKIPPED: TEST_DATABASE_URL is unset. CI sets it; locally run\n  while read -r l; do export "$l"; done < <(bash scripts/ci-postgres.sh)',
  );
}

describe.runIf(testDatabaseUrl)("two instances starting at once on one new PostgreSQL database", () => {
  let testDatabase: UnopenedScratchDatabase | undefined;
  const opened: OpenedDatabase[] = [];

  afterAll(async () => {
    await Promise.all(opened.map((database) => database.close()));
    await testDatabase?.destroy();
  });

  it("migrate once between them: one applies every migration, the other waits for its lock and finds none", async () => {
    testDatabase = await makeScratchDatabase({ driver: "postgres", name: "migrations_race" });
    const database = testDatabase;
    opened.push(...(await Promise.all([database.open(), database.open(), database.open()])));

    const applied = opened.map((database) => database.migrations.applied).sort((a, b) => b.length - a.length);
    expect(applied).toEqual([journalTags, [], []]);
    const result = await opened[0]!.db.execute(sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`);
    expect((result as unknown as { rows: { count: number }[] }).rows[0]?.count).toBe(journalTags.length);
  }, SLOW);
});
