import "server-only";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { idleWaitMs, onNudge } from "@/lib/nudges";
import { sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { evaluateChanges, recordEvaluatorError } from "./evaluator";

/**
 * The risk evaluator's loop, started beside the token watcher (lib/server/start.ts), and like it
 * only where WATCHER_ENABLED: never two passes at once in this process; across instances the
 * state row's lock makes the passes take turns (lib/risk/evaluator.ts). Issuing never waits for it.
 *
 * Its pace (ADR 0047): a write that gives it work in this process (a token request, a watched
 * token's new state, an audit event) nudges it, and the next pass then comes at most `intervalMs`
 * after the last one, as it always did. With nothing written here it backs off: each look that
 * found nothing doubles the wait, up to `idleMaxMs`, and an idle look only reads the two newest
 * versions (one cheap query): a full pass runs when they moved past the cursors, or when the last
 * full pass is `recheckMs` old (a row of another instance that committed below the cursor is read
 * again by the pass's margin then).
 */

export type RiskLoopSettings = { intervalMs: number; idleMaxMs: number; recheckMs: number };
export const riskLoopSettings: RiskLoopSettings = { intervalMs: 2_000, idleMaxMs: 15_000, recheckMs: 300_000 };

/** What the loop needs; the app's are below (`startRiskEvaluator`), tests give their own. */
export type RiskLoopDependencies = {
  /** One full pass; its cursors afterwards, or null when it did not run (another instance's turn, an error). */
  pass: () => Promise<{ tokenCursor: number; auditCursor: number } | null>;
  /** The newest token version and audit sequence number. */
  newest: () => Promise<{ tokenVersion: number; auditSeq: number }>;
  settings: RiskLoopSettings;
  onError: (error: unknown) => void;
  now?: () => number;
};

export type RiskLoop = { stop: () => Promise<void>; nudge: () => void };

/** The loop's timing, apart from the database (unit-tested with fake timers). */
export function createRiskLoop(deps: RiskLoopDependencies): RiskLoop {
  const { settings } = deps;
  const now = deps.now ?? Date.now;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let timerDueAt = Number.POSITIVE_INFINITY;
  let running: Promise<void> | null = null;
  let lastPassEndedAt = now();
  let lastFullPassAt = Number.NEGATIVE_INFINITY;
  let cursors: { tokenCursor: number; auditCursor: number } | null = null;
  // Looks in a row that found nothing new: the wait doubles with each, up to idleMaxMs.
  let emptyLooks = 0;
  // A nudge asks for a full pass: the write that nudged may not have been committed at the probe.
  let isFullNext = true;

  const waitMs = () => idleWaitMs(emptyLooks, settings.intervalMs, settings.idleMaxMs);

  function schedule(delayMs: number): void {
    if (stopped) return;
    const dueAt = now() + Math.max(0, delayMs);
    if (timer && timerDueAt <= dueAt) return;
    if (timer) clearTimeout(timer);
    timerDueAt = dueAt;
    timer = setTimeout(onTimer, Math.max(0, delayMs));
    timer.unref?.();
  }

  function onTimer(): void {
    timer = undefined;
    timerDueAt = Number.POSITIVE_INFINITY;
    if (running) return;
    running = look().finally(() => {
      running = null;
      lastPassEndedAt = now();
      schedule(waitMs());
    });
  }

  async function look(): Promise<void> {
    try {
      const isFull = isFullNext;
      isFullNext = false;
      if (!isFull && cursors && now() - lastFullPassAt < settings.recheckMs) {
        const newest = await deps.newest();
        if (newest.tokenVersion <= cursors.tokenCursor && newest.auditSeq <= cursors.auditCursor) {
          emptyLooks += 1;
          return;
        }
      }
      const before = cursors;
      cursors = await deps.pass();
      lastFullPassAt = now();
      const moved = !before || !cursors || cursors.tokenCursor !== before.tokenCursor || cursors.auditCursor !== before.auditCursor;
      emptyLooks = moved ? 0 : emptyLooks + 1;
    } catch (error) {
      cursors = null;
      emptyLooks += 1;
      deps.onError(error);
    }
  }

  schedule(settings.intervalMs);
  return {
    nudge() {
      if (stopped) return;
      emptyLooks = 0;
      isFullNext = true;
      // As soon as it always came: one interval after the last pass (a pass under way schedules the next itself).
      if (!running) schedule(lastPassEndedAt + settings.intervalMs - now());
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** The newest token version and audit sequence number: how far a pass would read. */
export async function newestRiskVersions(db: DbExecutor): Promise<{ tokenVersion: number; auditSeq: number }> {
  const result = (await db.execute(
    sql`select (select max(shown_version) from token_requests) as max_version, (select max(chain_seq) from audit_events) as max_seq`,
  )) as unknown as { rows: { max_version: string | number | null; max_seq: string | number | null }[] };
  const [row] = result.rows;
  return { tokenVersion: Number(row?.max_version ?? 0), auditSeq: Number(row?.max_seq ?? 0) };
}

const globalForRisk = globalThis as typeof globalThis & { verideskRiskLoop?: { stop: () => Promise<void> } };

export function startRiskEvaluator(): void {
  if (globalForRisk.verideskRiskLoop) return;
  const log = logger.child({ module: "risk" });
  // Where the watcher runs, the rules run: an instance told to leave the background work to
  // another (WATCHER_ENABLED=false) writes nothing on its own schedule.
  if (!env().WATCHER_ENABLED) {
    log.info("risk rules evaluator off with the watcher (WATCHER_ENABLED=false): another instance runs it");
    return;
  }
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const loop = createRiskLoop({
    settings: riskLoopSettings,
    async pass() {
      const db = await getDb();
      try {
        const report = await evaluateChanges(db, { owner });
        if (report.alertsOpened + report.alertsExtended + report.casesOpened > 0) log.info({ ...report }, "risk rules: alerts");
        return report.ran ? { tokenCursor: report.tokenCursor, auditCursor: report.auditCursor } : null;
      } catch (error) {
        log.error({ err: error }, "risk rules: pass failed");
        await recordEvaluatorError(db, (error as Error).message).catch(() => undefined);
        return null;
      }
    },
    async newest() {
      return newestRiskVersions(await getDb());
    },
    onError: (error) => log.error({ err: error }, "risk rules: could not look for changes"),
  });
  const stopListening = onNudge("risk", loop.nudge);
  globalForRisk.verideskRiskLoop = {
    stop: async () => {
      stopListening();
      await loop.stop();
    },
  };
}

export async function stopRiskEvaluator(): Promise<void> {
  await globalForRisk.verideskRiskLoop?.stop();
  globalForRisk.verideskRiskLoop = undefined;
}
