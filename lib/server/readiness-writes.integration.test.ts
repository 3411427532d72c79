import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * Readiness tells the truth about writing (ADR 0043): on the process's own embedded database, it
 * goes red when a write is refused though `SELECT 1` still answers (here a trigger raising the
 * disk-full error on the probe's row), when answers of the service wait in memory to be recorded,
 * and it reports the data directory's free space. The full disk itself is the drill's
 * (test/drills/disk-full.drill.test.ts).
 */

await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("readiness-writes", { WATCHER_ENABLED: "false", READINESS_MIN_FREE_DISK_MB: "1" });
});

const { getDb, closeDb } = await import("@/lib/db/client");
const { checkReadiness, freeDiskBytes, WRITE_CHECK_EVERY_MS } = await import("./readiness");
const { recordRetryQueue } = await import("@/lib/tokens/record-retry");
const { removeScratchProcessDatabase } = await import("@/test/kit/process-database");

// The first open (and its migrations) may outlast readiness's 2-second limit.
beforeAll(async () => {
  await getDb();
}, 60_000);

afterAll(async () => {
  await closeDb();
  removeScratchProcessDatabase();
});

describe("readiness on the embedded database", () => {
  let clock = Date.now();
  /** Past the write check's interval, so each call writes again. */
  const later = () => new Date((clock += WRITE_CHECK_EVERY_MS + 1));

  it("is ready with a committed write and the disk's free space named", async () => {
    const readiness = await checkReadiness(later());
    expect(readiness.checks.writes).toEqual({ ok: true, detail: "a write committed" });
    expect(readiness.checks.disk.ok).toBe(true);
    expect(readiness.checks.disk.detail).toMatch(/^\d+ MB free$/);
    expect(readiness.checks.recording.ok).toBe(true);
    expect(readiness.ok).toBe(true);
    expect(await freeDiskBytes(process.env.PGLITE_DATA_DIR!)).toBeGreaterThan(1024 * 1024);
  });

  it("goes red when the database answers but refuses writes, and green when it writes again", async () => {
    const db = await getDb();
    await db.execute(sql.raw(`CREATE FUNCTION test_refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`));
    await db.execute(sql.raw("CREATE TRIGGER test_disk_full BEFORE UPDATE ON upstream_call_budget FOR EACH ROW EXECUTE FUNCTION test_refuse_write()"));
    const refused = await checkReadiness(later());
    expect(refused.checks.database.ok).toBe(true);
    expect(refused.checks.writes).toEqual({ ok: false, detail: "a write failed: 53100" });
    expect(refused.ok).toBe(false);
    // Within the interval the last result stands: a probe every second writes every 5 s.
    expect((await checkReadiness(new Date(clock + 1))).checks.writes.ok).toBe(false);

    await db.execute(sql.raw("DROP TRIGGER test_disk_full ON upstream_call_budget"));
    expect((await checkReadiness(new Date(clock + 2))).checks.writes.ok).toBe(false);
    expect(await checkReadiness(later())).toMatchObject({ ok: true, checks: { writes: { ok: true } } });
  });

  it("goes red while answers of the service wait in memory to be recorded", async () => {
    let isDatabaseBack = false;
    recordRetryQueue().add(
      {
        tokenRequestId: "00000000-0000-4000-8000-000000000001",
        what: "issued",
        write: async () => {
          if (!isDatabaseBack) throw new Error("still full");
        },
      },
      new Error("full"),
    );
    const waiting = await checkReadiness(later());
    expect(waiting.ok).toBe(false);
    expect(waiting.checks.recording.detail).toMatch(/^1 answer\(s\) of the service waiting to be recorded/);

    isDatabaseBack = true;
    await recordRetryQueue().flush();
    expect((await checkReadiness(later())).ok).toBe(true);
  });
});
