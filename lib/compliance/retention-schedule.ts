import "server-only";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { retentionSettingsFrom, runRetentionJob, type RetentionRunReport } from "./retention-job";

/**
 * Runs the retention job on a schedule in this server process (instrumentation.ts starts it next
 * to the watcher). Every instance schedules it; the job's advisory lock lets one run at a time
 * and the others skip that round. The first run comes a minute after boot, off the start path.
 */

const globalForRetention = globalThis as typeof globalThis & { verideskRetention?: { stop(): void } };
const firstRunAfterMs = 60_000;

export function startRetentionSchedule(): { stop(): void } | null {
  const settings = env();
  const log = logger.child({ module: "retention" });
  if (!settings.RETENTION_JOB_ENABLED) {
    log.info("retention job disabled here (RETENTION_JOB_ENABLED=false): another instance or `npm run retention -- --apply` must run it");
    return null;
  }
  if (globalForRetention.verideskRetention) return globalForRetention.verideskRetention;
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;
  const runOnce = async (): Promise<RetentionRunReport | null> => {
    try {
      const report = await runRetentionJob(await getDb(), { settings: retentionSettingsFrom(settings), trigger: "schedule" });
      log.info({ ...report, settings: undefined }, report.status === "skipped" ? "retention job skipped: another instance holds the lock" : "retention job ran");
      return report;
    } catch (error) {
      log.error({ err: error }, "retention job failed; it runs again at the next interval");
      return null;
    }
  };
  const schedule = (delayMs: number) => {
    if (isStopped) return;
    timer = setTimeout(() => void runOnce().then(() => schedule(settings.RETENTION_JOB_MINUTES * 60_000)), delayMs);
    timer.unref();
  };
  schedule(firstRunAfterMs);
  const handle = {
    stop() {
      isStopped = true;
      if (timer) clearTimeout(timer);
      globalForRetention.verideskRetention = undefined;
    },
  };
  globalForRetention.verideskRetention = handle;
  return handle;
}
