import "server-only";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { evaluateChanges, recordEvaluatorError } from "./evaluator";

/**
 * The risk evaluator's loop, started beside the token watcher (lib/server/start.ts), and like it
 * only where WATCHER_ENABLED: one pass
 * every couple of seconds, never two at once in this process; across instances the state row's
 * lock makes the passes take turns (lib/risk/evaluator.ts). Issuing never waits for it.
 */

const intervalMs = 2_000;
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
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    const db = await getDb();
    try {
      const report = await evaluateChanges(db, { owner });
      if (report.alertsOpened + report.alertsExtended + report.casesOpened > 0) log.info({ ...report }, "risk rules: alerts");
    } catch (error) {
      log.error({ err: error }, "risk rules: pass failed");
      await recordEvaluatorError(db, (error as Error).message).catch(() => undefined);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  globalForRisk.verideskRiskLoop = {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

export async function stopRiskEvaluator(): Promise<void> {
  await globalForRisk.verideskRiskLoop?.stop();
  globalForRisk.verideskRiskLoop = undefined;
}
