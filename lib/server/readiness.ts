import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { pendingMigrations } from "@/lib/db/migrate";
import { upstreamCallBudget } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { runningTokenWatcher } from "@/lib/watcher/boot";
import { processShutdown } from "./shutdown";

/**
 * Whether this instance should be sent work (ADR 0024): `GET /api/health/ready`. Red (503) while
 * it shuts down, when its database does not answer, when the schema is behind the code, or when
 * its token watcher (if this instance runs one) has stopped looking for due tokens. The provider's
 * state is reported but never makes it red: every instance shares the provider, so taking them
 * out of the balancer would not help a teller. Nothing in the answer is a secret or customer data.
 */

export type CheckResult = { ok: boolean; detail: string };

export type Readiness = {
  ok: boolean;
  checks: { draining: CheckResult; database: CheckResult; migrations: CheckResult; watcher: CheckResult };
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

/** The watcher's loop looks for due tokens at least every tick; three ticks late (or 30 s) it is stuck. */
export function watcherStallLimitMs(tickMs: number): number {
  return Math.max(30_000, 3 * tickMs);
}

export async function checkReadiness(now = new Date()): Promise<Readiness> {
  const settings = env();
  const draining = processShutdown()?.isDraining() ?? false;
  const checks: Readiness["checks"] = {
    draining: { ok: !draining, detail: draining ? "shutting down: finishing polls and requests" : "serving" },
    database: { ok: false, detail: "not checked" },
    migrations: { ok: false, detail: "not checked" },
    watcher: { ok: true, detail: "disabled in this instance (WATCHER_ENABLED=false)" },
  };
  const upstream: Readiness["upstream"] = { pausedUntil: null, pauseReason: null };

  try {
    const db = await withTimeout(getDb(), DATABASE_TIMEOUT_MS, "the database");
    await withTimeout(db.execute(sql`SELECT 1`), DATABASE_TIMEOUT_MS, "the database");
    checks.database = { ok: true, detail: "answering" };
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

  if (settings.WATCHER_ENABLED) {
    const watcher = await runningTokenWatcher();
    const state = watcher?.describe();
    const sinceLoopMs = state?.lastLoopAt ? now.getTime() - state.lastLoopAt.getTime() : Number.POSITIVE_INFINITY;
    checks.watcher = !watcher
      ? { ok: false, detail: "not running (it could not start; see the log)" }
      : state!.isStopping
        ? { ok: false, detail: "stopping" }
        : sinceLoopMs > watcherStallLimitMs(settings.WATCHER_TICK_MS)
          ? { ok: false, detail: state!.lastLoopAt ? `last looked for due tokens ${Math.round(sinceLoopMs / 1000)} s ago` : "has not looked for due tokens yet" }
          : { ok: true, detail: `running, ${state!.inFlight} poll(s) under way` };
  }

  const ok = Object.values(checks).every((check) => check.ok);
  return { ok, checks, upstream };
}
