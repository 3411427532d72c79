import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@/lib/logger";
import { openScratchDatabase, queryRows, type ScratchDatabase } from "@/test/kit/database";
import { startPgliteUpkeep } from "./upkeep";

describe("embedded database upkeep", () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver: "pglite", name: "upkeep" });
  });
  afterAll(async () => {
    await scratch?.destroy();
  });

  const branchStats = async () => {
    const [row] = await queryRows<{ lastVacuum: string | null; lastAnalyze: string | null }>(
      scratch.opened.db,
      sql`select last_vacuum::text as "lastVacuum", last_analyze::text as "lastAnalyze"
          from pg_stat_user_tables where relname = 'branches'`,
    );
    return row!;
  };

  it("vacuums and analyzes on its timer", async () => {
    const db = scratch.opened.db;
    await db.execute(sql`insert into branches (code, name) select 'U' || g, 'Upkeep ' || g from generate_series(1, 200) g`);
    for (let round = 0; round < 3; round++) await db.execute(sql`update branches set name = name || '.'`);
    // PGlite has no autovacuum worker: nothing has cleaned up after those updates.
    expect(await branchStats()).toEqual({ lastVacuum: null, lastAnalyze: null });

    const lines: string[] = [];
    const log = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
    const upkeep = startPgliteUpkeep(db, { firstAfterMs: 10, everyMs: 60_000, log });
    try {
      await expect.poll(() => lines.some((line) => line.includes("embedded database vacuumed")), { timeout: 10_000 }).toBe(true);
      const after = await branchStats();
      expect(after.lastVacuum).not.toBeNull();
      expect(after.lastAnalyze).not.toBeNull();
    } finally {
      upkeep.stop();
    }
  });

  it("a failed vacuum is logged and never thrown", async () => {
    const lines: string[] = [];
    const failing = { execute: () => Promise.reject(new Error("disk full")) } as unknown as typeof scratch.opened.db;
    const upkeep = startPgliteUpkeep(failing, { firstAfterMs: 60_000, everyMs: 60_000, log: createLogger({ destination: { write: (line: string) => void lines.push(line) } }) });
    upkeep.stop();
    await upkeep.runNow();
    expect(lines.join("\n")).toContain("embedded database vacuum failed");
  });
});
