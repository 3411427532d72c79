import "server-only";
import { statfs } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { pendingMigrations } from "@/lib/db/migrate";
import { upstreamCallBudget } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { isDatabaseUnavailable } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { recordRetryQueue } from "@/lib/tokens/record-retry";
import { runningTokenWatcher } from "@/lib/watcher/boot";
import { processShutdown } from "./shutdown";

/**
 * Whether this instance should be sent work (ADR 0024): `GET /api/health/ready`. Red (503) while
 * it shuts down, when its database does not answer, when the schema is behind the code, or when
 * its token watcher (if this instance runs one) has stopped looking for due tokens — and (ADR 0043)
 * when the database answers but cannot write, when answers of the service wait in memory to be
 * recorded, or when the embedded database's disk is nearly full. The provider's
 * state is reported but never makes it red: every instance shares the provider, so taking them
 * out of the balancer would not help a teller. Nothing in the answer is a secret or customer data.
 */

export type CheckResult = { ok: boolean; detail: string };

export type Readiness = {
  ok: boolean;
  checks: {
    draining: CheckResult;
    database: CheckResult;
    /** A committed write, at most every WRITE_CHECK_EVERY_MS (the last result in between). */
    writes: CheckResult;
    /** Answers of the service the database refused, waiting in this process (lib/tokens/record-retry.ts). */
    recording: CheckResult;
    /** Free space on the embedded database's disk (PostgreSQL's own disk is its operator's). */
    disk: CheckResult;
    migrations: CheckResult;
    watcher: CheckResult;
  };
  /** Reported, not fatal. */
  upstream: { pausedUntil: string | null; pauseReason: string | null };
};

/** A database that has not answered in this long counts as down (a balancer's probe must not hang). */
const DATABASE_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error as Error)),
    );
  });
}

/**
 * The watcher's loop looks for due tokens at least every `longestWaitMs` (its idle bound, ADR
 * 0047: a backed-off watcher is idle, not stalled); three of those late (or 30 s) it is stuck.
 */
export function watcherStallLimitMs(longestWaitMs: number): number {
  return Math.max(30_000, 3 * longestWaitMs);
}

/** A balancer probing every second writes at most this often; the last result stands in between. */
export const WRITE_CHECK_EVERY_MS = 5_000;
const lastWrite: { at: number; result: CheckResult | null } = { at: 0, result: null };

/**
 * A real, committed write that changes nothing: the shared budget row rewritten as it is. A full
 * disk, a read-only or recovering server, a revoked grant all refuse it, while `SELECT 1` passes.
 */
async function checkWrites(db: Awaited<ReturnType<typeof getDb>>, nowMs: number): Promise<CheckResult> {
  if (lastWrite.result && nowMs - lastWrite.at < WRITE_CHECK_EVERY_MS) return lastWrite.result;
  let result: CheckResult;
  try {
    await withTimeout(
      db.update(upstreamCallBudget).set({ callsInWindow: sql`${upstreamCallBudget.callsInWindow}` }).where(eq(upstreamCallBudget.id, 1)),
      DATABASE_TIMEOUT_MS,
      "the database",
    );
    result = { ok: true, detail: "a write committed" };
  } catch (error) {
    logger.warn({ err: error }, "readiness: the database refused a write");
    result = { ok: false, detail: `a write failed: ${reasonOf(error)}` };
  }
  lastWrite.at = nowMs;
  lastWrite.result = result;
  return result;
}

/** Free bytes on the disk holding the embedded database's directory (its parent before it exists). */
export async function freeDiskBytes(dataDir: string): Promise<number> {
  const absolute = path.resolve(dataDir);
  for (const candidate of [absolute, path.dirname(absolute)]) {
    try {
      const stats = await statfs(candidate);
      return stats.bavail * stats.bsize;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  throw new Error("the data directory and its parent do not exist");
}

async function checkDisk(settings: ReturnType<typeof env>): Promise<CheckResult> {
  if (settings.DATABASE_URL) return { ok: true, detail: "PostgreSQL: its disk is watched by its operator" };
  const minimumMb = settings.READINESS_MIN_FREE_DISK_MB;
  try {
    const freeMb = Math.floor((await freeDiskBytes(settings.PGLITE_DATA_DIR)) / 1024 / 1024);
    return freeMb < minimumMb
      ? { ok: false, detail: `nearly full: ${freeMb} MB free, below ${minimumMb} MB (READINESS_MIN_FREE_DISK_MB)` }
      : { ok: true, detail: `${freeMb} MB free` };
  } catch (error) {
    logger.warn({ err: error }, "readiness: could not read the data directory's free space");
    return { ok: false, detail: "free space could not be read" };
  }
}

/** The kind of a database error for the answer (a message may name hosts or roles; the log has it all). */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
  if ((error as Error).message?.startsWith("the database did not answer")) return "timeout";
  return isDatabaseUnavailable(error) ? "database unavailable" : "error";
}

export async function checkReadiness(now = new Date()): Promise<Readiness> {
  const settings = env();
  const draining = processShutdown()?.isDraining() ?? false;
  const checks: Readiness["checks"] = {
    draining: { ok: !draining, detail: draining ? "shutting down: finishing polls and requests" : "serving" },
    database: { ok: false, detail: "not checked" },
    writes: { ok: false, detail: "not checked" },
    recording: { ok: true, detail: "nothing waiting" },
    disk: { ok: true, detail: "not checked" },
    migrations: { ok: false, detail: "not checked" },
    watcher: { ok: true, detail: "disabled in this instance (WATCHER_ENABLED=false)" },
  };
  const upstream: Readiness["upstream"] = { pausedUntil: null, pauseReason: null };

  try {
    const db = await withTimeout(getDb(), DATABASE_TIMEOUT_MS, "the database");
    await withTimeout(db.execute(sql`SELECT 1`), DATABASE_TIMEOUT_MS, "the database");
    checks.database = { ok: true, detail: "answering" };
    checks.writes = await checkWrites(db, now.getTime());
    const pending = await withTimeout(pendingMigrations(db), DATABASE_TIMEOUT_MS, "the database");
    checks.migrations =
      pending.length === 0 ? { ok: true, detail: "current" } : { ok: false, detail: `behind the code by ${pending.length} migration(s): ${pending.join(", ")}` };
    const [budget] = await withTimeout(db.select().from(upstreamCallBudget), DATABASE_TIMEOUT_MS, "the database");
    if (budget?.pausedUntil && budget.pausedUntil > now) {
      upstream.pausedUntil = budget.pausedUntil.toISOString();
      upstream.pauseReason = budget.pauseReason;
    }
  } catch (error) {
    // The log has the whole error; the answer only its kind (a message may name hosts or roles).
    logger.warn({ err: error }, "readiness: the database check failed");
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code) ? code : (error as Error).message.startsWith("the database did not answer") ? "timeout" : "error";
    if (!checks.database.ok) checks.database = { ok: false, detail: `not answering: ${reason}` };
    else checks.migrations = { ok: false, detail: `could not be read: ${reason}` };
  }

  const waiting = recordRetryQueue().describe();
  if (waiting.length > 0) {
    const oldestS = Math.round((now.getTime() - waiting[0]!.queuedAt.getTime()) / 1000);
    checks.recording = { ok: false, detail: `${waiting.length} answer(s) of the service waiting to be recorded, the oldest for ${oldestS} s` };
  }
  checks.disk = await checkDisk(settings);

  if (settings.WATCHER_ENABLED) {
    const watcher = await runningTokenWatcher();
    const state = watcher?.describe();
    const sinceLoopMs = state?.lastLoopAt ? now.getTime() - state.lastLoopAt.getTime() : Number.POSITIVE_INFINITY;
    checks.watcher = !watcher
      ? { ok: false, detail: "not running (it could not start; see the log)" }
      : state!.isStopping
        ? { ok: false, detail: "stopping" }
        : sinceLoopMs > watcherStallLimitMs(Math.max(settings.WATCHER_TICK_MS, settings.WATCHER_IDLE_MAX_MS))
          ? { ok: false, detail: state!.lastLoopAt ? `last looked for due tokens ${Math.round(sinceLoopMs / 1000)} s ago` : "has not looked for due tokens yet" }
          : { ok: true, detail: `running, ${state!.inFlight} poll(s) under way` };
  }

  const ok = Object.values(checks).every((check) => check.ok);
  return { ok, checks, upstream };
}
