import "server-only";
import { sql } from "drizzle-orm";
import { env } from "@/lib/env";
import { logger, type Logger } from "@/lib/logger";
import { getDb } from "./client";
import type { Database } from "./types";

/**
 * Vacuuming the embedded database. PostgreSQL's autovacuum workers clean up after updates and
 * keep the planner's statistics fresh; PGlite is one backend inside this process with no
 * background workers, so nothing does it unless the app asks. Without it every watcher poll
 * (an UPDATE of the token row) leaves a dead row version and index entries behind for good, and
 * the visibility map stays empty, so the review figures' index-only scan reads the table anyway.
 *
 * One `VACUUM (ANALYZE)` shortly after start and then every `everyMs`: it skips pages already
 * clean, so after the first run it takes well under a second; the embedded database answers
 * nothing else meanwhile, which is why it runs rarely and never at start-up itself.
 */
export type PgliteUpkeep = {
  /** Runs one vacuum now (after any run in progress); what the timer calls. */
  runNow(): Promise<void>;
  stop(): void;
};

export function startPgliteUpkeep(db: Database, options: { firstAfterMs: number; everyMs: number; log: Logger }): PgliteUpkeep {
  const { log } = options;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const vacuum = async () => {
    const started = performance.now();
    try {
      await db.execute(sql`vacuum (analyze)`);
      log.info({ durationMs: Math.round(performance.now() - started) }, "embedded database vacuumed");
    } catch (error) {
      // Never fatal: the next run tries again, and until then queries are only slower.
      log.warn({ err: error }, "embedded database vacuum failed; trying again at the next interval");
    }
  };
  const runNow = () => (running = running.then(vacuum));
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => void runNow().then(() => schedule(options.everyMs)), delayMs);
    // A pending vacuum never keeps the process alive on its own.
    timer.unref();
  };
  schedule(options.firstAfterMs);
  return {
    runNow,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** Started once per server by instrumentation.ts: on the embedded database only. */
export async function startDatabaseUpkeep(): Promise<PgliteUpkeep | null> {
  const settings = env();
  if (settings.DATABASE_URL) return null;
  const log = logger.child({ module: "db-upkeep" });
  try {
    // The first run soon after start: a database written while the app was down (a seed, an
    // import, a crash) gets its statistics and visibility map before the first busy hour.
    return startPgliteUpkeep(await getDb(), { firstAfterMs: 15_000, everyMs: settings.PGLITE_VACUUM_MINUTES * 60_000, log });
  } catch (error) {
    // The database did not open: the app reports that on every request; the watcher retries it.
    log.error({ err: error }, "embedded database upkeep not started: the database did not open");
    return null;
  }
}
