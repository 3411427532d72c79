import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDatabase } from "@/lib/db/types";
import { auditEvents } from "@/lib/db/schema";
import { forEachDatabase, makeScratchDatabase, openScratchDatabase, pgliteDataDirOf, refusalMessages, withScratchDirectory, type ScratchDatabase, type ScratchDriver } from "@/test/kit/database";
import { GENESIS_HASH, verifyAuditChain } from "./chain";
import { recordAuditEvent } from "./index";

/**
 * The audit trail's hash chain (ADR 0019) on PGlite and PostgreSQL: parallel writers chain
 * cleanly, and an edited and a deleted event are found by the TypeScript verifier. On PostgreSQL
 * with the app role (TEST_APP_DATABASE_URL, as CI runs) the app's role is also shown to be unable
 * to change the trail by any means: UPDATE, DELETE, TRUNCATE, ALTER TABLE, DISABLE TRIGGER, or
 * replacing the chain's function.
 */

const tamper = (statement: string) => [
  "ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only",
  statement,
  "ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only",
];

function defineChainTests(driver: ScratchDriver) {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "chain" });
  });
  afterAll(async () => {
    await scratch?.destroy();
  });

  it("chains 50 parallel transactions one after another, whatever an INSERT claims", async () => {
    const { db } = scratch.opened;
    await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        db.transaction(async (tx) => {
          await recordAuditEvent(tx, { action: "test.parallel", actor: null, actorLabel: `writer ${index}`, details: { index, text: "é ü ✓ \"quoted\";" } });
          await recordAuditEvent(tx, { action: "test.parallel_second", actor: null, actorLabel: `writer ${index}`, details: { index } });
        }),
      ),
    );
    // A writer that tries to set the chain itself is overruled by the trigger.
    await db.insert(auditEvents).values({ action: "test.forged", chainSeq: 1, prevHash: GENESIS_HASH, hash: "f".repeat(64) });

    const rows = await db.select({ seq: auditEvents.chainSeq, prev: auditEvents.prevHash, hash: auditEvents.hash }).from(auditEvents).orderBy(asc(auditEvents.chainSeq));
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: rows.length }, (_, index) => index + 1));
    expect(new Set(rows.map((row) => row.prev)).size).toBe(rows.length);
    const report = await verifyAuditChain(db);
    expect(report.firstBreak).toBeNull();
    expect(report.eventCount).toBe(rows.length);
    expect(report.eventCount).toBeGreaterThanOrEqual(101);
    expect(report.headHash).toBe(rows.at(-1)!.hash);
    expect(report.headHash).not.toBe("f".repeat(64));
  });

  it("dates every event itself: an INSERT claiming 2020 (or 2099) is dated by the database's clock, in chain order", async () => {
    const { db } = scratch.opened;
    const { rows } = (await db.execute(sql`SELECT clock_timestamp() AS before`)) as unknown as { rows: { before: string | Date }[] };
    const before = rows[0]!.before;
    await db.insert(auditEvents).values({ action: "test.backdated", at: new Date("2020-01-01T09:00:00Z") });
    await db.execute(sql`INSERT INTO audit_events (action, at) VALUES ('test.future_dated', '2099-12-31T09:00:00Z')`);
    const dated = await db.select().from(auditEvents).where(inArray(auditEvents.action, ["test.backdated", "test.future_dated"])).orderBy(asc(auditEvents.chainSeq));
    expect(dated).toHaveLength(2);
    for (const event of dated) {
      expect(event.at.getTime()).toBeGreaterThanOrEqual(new Date(before).getTime());
      expect(event.at.getTime()).toBeLessThan(Date.now() + 60_000);
    }
    const all = await db.select({ at: auditEvents.at }).from(auditEvents).orderBy(asc(auditEvents.chainSeq));
    const times = all.map((row) => row.at.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect((await verifyAuditChain(db)).firstBreak).toBeNull();
  });

  it("records an event quoting hostile input (\\0 included) and keeps the chain whole", async () => {
    const { db } = scratch.opened;
    await recordAuditEvent(db, { action: "test.hostile", actor: null, actorLabel: "a\u0000b", details: { typed: "x\u0000y", ["k\u0000"]: ["\u0000"] } });
    const [event] = await db.select().from(auditEvents).where(eq(auditEvents.action, "test.hostile"));
    expect(event).toMatchObject({ actorLabel: "a\uFFFDb", details: { typed: "x\uFFFDy", ["k\uFFFD"]: ["\uFFFD"] } });
    expect((await verifyAuditChain(db)).firstBreak).toBeNull();
  });

  it("finds an edited event, and a deleted one", async () => {
    const { db } = scratch.opened;
    const [victim] = await db.select().from(auditEvents).where(eq(auditEvents.chainSeq, 10));
    await scratch.asOwner(tamper(`UPDATE audit_events SET details = '{"index": 999}' WHERE id = ${victim!.id}`));
    const edited = await verifyAuditChain(db);
    expect(edited.firstBreak).toMatchObject({ id: String(victim!.id), chainSeq: "10", reason: "hash_mismatch" });

    // The tamperer puts it back, then removes an event further on instead.
    await scratch.asOwner(tamper(`UPDATE audit_events SET details = '${JSON.stringify(victim!.details)}' WHERE id = ${victim!.id}`));
    expect((await verifyAuditChain(db)).firstBreak).toBeNull();
    const [removed] = await db.select().from(auditEvents).where(eq(auditEvents.chainSeq, 20));
    await scratch.asOwner(tamper(`DELETE FROM audit_events WHERE id = ${removed!.id}`));
    const deleted = await verifyAuditChain(db);
    expect(deleted.firstBreak).toMatchObject({ chainSeq: "21", reason: "sequence_gap" });

    // Renumbering to hide the gap still breaks the chain: event 21 pointed at the removed one.
    await scratch.asOwner(tamper(`UPDATE audit_events SET chain_seq = 20 WHERE chain_seq = 21`));
    expect((await verifyAuditChain(db)).firstBreak).toMatchObject({ chainSeq: "20", reason: "prev_hash_mismatch" });
  });
}

forEachDatabase("audit hash chain", defineChainTests);

if (process.env.TEST_DATABASE_URL) {
  describe.runIf(process.env.TEST_APP_DATABASE_URL)("the app's PostgreSQL role (owner/app split)", () => {
    let scratch: ScratchDatabase;
    beforeAll(async () => {
      scratch = await openScratchDatabase({ driver: "postgres", name: "chain_roles" });
      await recordAuditEvent(scratch.opened.db, { action: "test.kept", actor: null, details: {} });
    });
    afterAll(async () => {
      await scratch?.destroy();
    });

    it("serves as a role other than the owner, which may INSERT and SELECT audit events", async () => {
      const { db } = scratch.opened;
      const result = (await db.execute(sql`SELECT current_user AS me, (SELECT tableowner FROM pg_tables WHERE tablename = 'audit_events') AS owner`)) as unknown as { rows: { me: string; owner: string }[] };
      expect(result.rows[0]!.me).not.toBe(result.rows[0]!.owner);
      await recordAuditEvent(db, { action: "test.app_insert", actor: null, details: {} });
      expect((await verifyAuditChain(db)).eventCount).toBe(2);
    });

    it("cannot date an event: one the app role says happened in 2020 is dated now, and the chain holds", async () => {
      const { db } = scratch.opened;
      const startedAt = Date.now();
      await db.execute(sql`INSERT INTO audit_events (action, at) VALUES ('test.app_backdated', '2020-06-01T10:00:00Z')`);
      const [event] = await db.select().from(auditEvents).where(eq(auditEvents.action, "test.app_backdated"));
      // The database's clock and the test's are the same machine's; a minute covers any drift.
      expect(event!.at.getTime()).toBeGreaterThan(startedAt - 60_000);
      expect((await verifyAuditChain(db)).firstBreak).toBeNull();
    });

    it.each([
      ["UPDATE", "UPDATE audit_events SET action = 'rewritten'", /permission denied for table audit_events/],
      ["DELETE", "DELETE FROM audit_events", /permission denied for table audit_events/],
      ["TRUNCATE", "TRUNCATE audit_events", /permission denied for table audit_events/],
      ["DISABLE TRIGGER", "ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only", /must be owner of table audit_events/],
      ["DISABLE the chain", "ALTER TABLE audit_events DISABLE TRIGGER audit_events_chain", /must be owner of table audit_events/],
      ["ALTER TABLE", "ALTER TABLE audit_events DROP COLUMN hash", /must be owner of table audit_events/],
      ["DROP TRIGGER", "DROP TRIGGER audit_events_append_only ON audit_events", /must be owner of (table|relation) audit_events/],
      [
        "replace the chain function",
        "CREATE OR REPLACE FUNCTION public.audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
        /must be owner of function audit_events_chain|permission denied for schema public/,
      ],
      ["set session_replication_role", "SET session_replication_role = replica", /permission denied to set parameter/],
    ])("refuses the app role: %s", async (_, statement, message) => {
      expect(await refusalMessages(scratch.opened.db.execute(sql.raw(statement)))).toMatch(message);
      expect((await verifyAuditChain(scratch.opened.db)).firstBreak).toBeNull();
    });
  });
}

function withoutPostgres(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _app, MIGRATION_DATABASE_URL: _owner, ...rest } = environment;
  return rest;
}

describe("npm run audit:verify", () => {
  const runVerify = (pgliteDataDir: string) =>
    spawnSync(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "--conditions=react-server", "scripts/audit-verify.ts"], {
      env: { ...withoutPostgres(process.env), PGLITE_DATA_DIR: pgliteDataDir, APP_ENV: "test" },
      encoding: "utf8",
    });

  it("prints the head hash of an intact trail, and exits 1 naming the first broken event", async () => {
    const scratch = await makeScratchDatabase({ driver: "pglite", name: "verify" });
    const dataDir = pgliteDataDirOf(scratch);
    try {
      let opened = await scratch.open("verify test");
      for (const action of ["test.one", "test.two", "test.three"]) await recordAuditEvent(opened.db, { action, actor: null });
      const [head] = await opened.db.select({ hash: auditEvents.hash }).from(auditEvents).where(eq(auditEvents.action, "test.three"));
      const [second] = await opened.db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.action, "test.two"));
      await opened.close();

      const intact = runVerify(dataDir);
      expect(intact.status, intact.stderr).toBe(0);
      expect(intact.stdout).toContain(`Chain intact. Head: chain_seq 3, hash ${head!.hash}`);

      opened = await scratch.open("verify test");
      for (const statement of tamper(`UPDATE audit_events SET actor_label = 'someone else' WHERE id = ${second!.id}`)) {
        await opened.db.execute(sql.raw(statement));
      }
      await opened.close();

      const broken = runVerify(dataDir);
      expect(broken.status).toBe(1);
      expect(broken.stderr).toContain(`BROKEN at event ${second!.id} (chain_seq 2)`);
    } finally {
      await scratch.destroy();
    }
    // Two PGlite opens and two runs of the script: slow on a busy machine.
  }, 180_000);
});

/** The migrations folder cut before the first migration whose tag ends with `suffix`. */
function migrationsBefore(dir: string, suffix: string): string {
  const before = path.join(dir, "drizzle-before");
  fs.cpSync(path.join(process.cwd(), "drizzle"), before, { recursive: true });
  const journalPath = path.join(before, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag.endsWith(suffix));
  expect(cut).toBeGreaterThan(0);
  fs.writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return before;
}

describe("the migration that has the database date every event", () => {
  it("leaves the events recorded before it as they were: their times kept, the chain intact", async () => {
    await withScratchDirectory("chain-at", async (dir) => {
      const before = migrationsBefore(dir, "_audit-at-set-by-database");
      const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
        import("@electric-sql/pglite"),
        import("drizzle-orm/pglite"),
        import("drizzle-orm/pglite/migrator"),
      ]);
      const client = await PGlite.create(path.join(dir, "pglite"));
      try {
        const db = drizzle({ client });
        await migrate(db, { migrationsFolder: before });
        // Before it, the writer's time was kept (which is what it closes).
        await client.query(`INSERT INTO audit_events (action, at) VALUES ('old.dated', '2026-03-02T08:00:00Z')`);
        await migrate(db, { migrationsFolder: path.join(process.cwd(), "drizzle") });
        await client.query(`INSERT INTO audit_events (action, at) VALUES ('new.dated', '2026-03-02T08:00:00Z')`);
        const rows = (await client.query<{ action: string; at: Date }>("SELECT action, at FROM audit_events ORDER BY chain_seq")).rows;
        expect(rows.map((row) => row.action)).toEqual(["old.dated", "new.dated"]);
        expect(rows[0]!.at.toISOString()).toBe("2026-03-02T08:00:00.000Z");
        expect(rows[1]!.at.toISOString()).not.toBe("2026-03-02T08:00:00.000Z");
        expect(await verifyAuditChain(db as unknown as OpenedDatabase["db"])).toMatchObject({ eventCount: 2, firstBreak: null });
      } finally {
        await client.close();
      }
    });
  });
});

describe("the migration that starts the chain", () => {
  it("chains the events recorded before it, in id order", async () => {
    await withScratchDirectory("chain-migration", async (dir) => {
      // The migrations folder as it was before the chain: the journal cut before `audit-hash-chain`.
      const before = migrationsBefore(dir, "_audit-hash-chain");

      const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
        import("@electric-sql/pglite"),
        import("drizzle-orm/pglite"),
        import("drizzle-orm/pglite/migrator"),
      ]);
      const client = await PGlite.create(path.join(dir, "pglite"));
      try {
        const db = drizzle({ client });
        await migrate(db, { migrationsFolder: before });
        for (const action of ["old.one", "old.two", "old.three"]) {
          await client.query(`INSERT INTO audit_events (action, actor_label, details) VALUES ($1, 'before the chain', '{"n": 1}')`, [action]);
        }
        await migrate(db, { migrationsFolder: path.join(process.cwd(), "drizzle") });
        await client.query(`INSERT INTO audit_events (action) VALUES ('new.one')`);
        const rows = (await client.query<{ action: string; chain_seq: string }>("SELECT action, chain_seq::text FROM audit_events ORDER BY chain_seq")).rows;
        expect(rows).toEqual([
          { action: "old.one", chain_seq: "1" },
          { action: "old.two", chain_seq: "2" },
          { action: "old.three", chain_seq: "3" },
          { action: "new.one", chain_seq: "4" },
        ]);
        const report = await verifyAuditChain(db as unknown as OpenedDatabase["db"]);
        expect(report).toMatchObject({ eventCount: 4, firstBreak: null, headSeq: "4" });
      } finally {
        await client.close();
      }
    });
  });
});
