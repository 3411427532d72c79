import "server-only";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { onNudge } from "@/lib/nudges";
import { startStaleAttemptSweep } from "@/lib/tokens/stale-attempts";
import { getUpstreamClient } from "@/lib/upstream";
import { createDrizzleWatcherStore } from "./drizzle-store";
import { watcherSettingsFrom } from "./settings";
import { createWatcher, type Watcher } from "./watcher";

// On globalThis: dev hot reload re-evaluates modules, and a second loop must never start.
const globalForWatcher = globalThis as typeof globalThis & {
  verideskTokenWatcher?: Promise<Watcher | null>;
  verideskStaleSweep?: { stop: () => void; attemptRecorded: () => void };
  verideskWatcherNudges?: () => void;
};

/**
 * Starts this process's token watcher (instrumentation.ts calls it once at server start). Off
 * with WATCHER_ENABLED=false. The server's shutdown stops it (lib/server/shutdown.ts): it
 * finishes its polls and hands its leases back, so that another instance, or this one
 * restarted, takes the tokens over at once.
 */
export function startTokenWatcher(): Promise<Watcher | null> {
  globalForWatcher.verideskTokenWatcher ??= boot().catch((error: unknown) => {
    logger.error({ err: error }, "token watcher could not start; open tokens are not followed until a restart");
    globalForWatcher.verideskTokenWatcher = undefined;
    return null;
  });
  return globalForWatcher.verideskTokenWatcher;
}

/** This process's watcher, once started (null when disabled or not started): readiness and the operations page ask it. */
export async function runningTokenWatcher(): Promise<Watcher | null> {
  return (await globalForWatcher.verideskTokenWatcher) ?? null;
}

/** Stops this process's watcher if it runs: the server's shutdown calls it before the database closes. */
export async function stopTokenWatcher(): Promise<void> {
  globalForWatcher.verideskStaleSweep?.stop();
  globalForWatcher.verideskWatcherNudges?.();
  await (await runningTokenWatcher())?.stop();
}

/** Asks this process's watcher to look for due tokens now (a page just opened on one). */
export function wakeTokenWatcher(): void {
  void globalForWatcher.verideskTokenWatcher?.then((watcher) => watcher?.wake());
}

async function boot(): Promise<Watcher | null> {
  const settings = env();
  const log = logger.child({ module: "watcher" });
  if (!settings.WATCHER_ENABLED) {
    log.info("token watcher disabled (WATCHER_ENABLED=false): another instance must run it");
    return null;
  }
  const db = await getDb();
  const store = createDrizzleWatcherStore(db);
  // An embedded database has exactly one owner process (lib/db/pglite-lock.ts): any lease in it
  // was left by a previous run of this app, killed mid-poll, and nobody else can hold one.
  if (!settings.DATABASE_URL) await store.clearAllLeases();

  // Attempts whose answer was lost turn "outcome unknown" by themselves (lib/tokens/stale-attempts.ts).
  const sweep = startStaleAttemptSweep({ db, issueTimeoutMs: settings.UPSTREAM_ISSUE_TIMEOUT_MS, log });
  globalForWatcher.verideskStaleSweep = sweep;
  const watcher = createWatcher({ store, source: getUpstreamClient(), settings: watcherSettingsFrom(settings), logger: log });
  watcher.start();
  // A token issued in this process is polled at once, whatever the idle back-off (ADR 0047).
  const stopTokenNudges = onNudge("tokens", () => watcher.wake());
  const stopAttemptNudges = onNudge("attempts", sweep.attemptRecorded);
  globalForWatcher.verideskWatcherNudges = () => (stopTokenNudges(), stopAttemptNudges());
  return watcher;
}
