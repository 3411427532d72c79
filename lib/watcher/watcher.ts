import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { pollToken } from "./poll-token";
import type { TokenStatusSource, WatchedToken, WatcherLogger, WatcherSettings, WatcherStore } from "./types";

/**
 * The one loop that keeps open tokens up to date, whoever is looking at them. Each tick leases the
 * tokens whose next poll is due (the store makes sure several app instances never poll the same
 * token at once), polls them a few at a time, writes what changed, and sleeps until the next tick.
 * Everything it knows is in the database, so a restarted process simply carries on; a fault of the
 * service or of the database is logged, backed off from, and never stops the loop.
 */

export type Watcher = {
  /** Runs one tick now (tests and the first tick after start). Returns how many tokens it polled. */
  runOnce(): Promise<number>;
  /** Stops ticking, waits for the tick under way and hands its leases back. */
  stop(): Promise<void>;
  readonly owner: string;
};

export type WatcherDependencies = {
  store: WatcherStore;
  source: TokenStatusSource;
  settings: WatcherSettings;
  logger: WatcherLogger;
  now?: () => Date;
  random?: () => number;
};

const MAX_IDLE_BACKOFF_MS = 30_000;
const MIN_SLEEP_MS = 50;

/** Creates the watcher without starting it (tests drive `runOnce`). */
export function createWatcher(dependencies: WatcherDependencies): Watcher & { start(): void } {
  const { store, source, settings, logger } = dependencies;
  const now = dependencies.now ?? (() => new Date());
  // Unique per process start: a lease left by a killed process is never mistaken for our own.
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let isStopping = false;
  let failedTicks = 0;

  async function pollAndSave(watched: WatchedToken): Promise<void> {
    const outcome = await pollToken({
      watched,
      source,
      now,
      follow: settings.follow,
      schedule: settings.schedule,
      random: dependencies.random,
    });
    const saved = await store.saveOutcome({ watched, owner, outcome, now: now() });
    const logFields = {
      tokenRequestId: watched.id,
      token: watched.token,
      state: outcome.state,
      calls: outcome.calls,
      nextPollAt: outcome.nextPollAt?.toISOString() ?? null,
    };
    if (!saved) {
      logger.warn(logFields, "watcher lost its lease before saving; the next holder polls again");
    } else if (outcome.stateBefore !== outcome.state) {
      logger.info({ ...logFields, from: outcome.stateBefore }, "token state changed");
    } else if (outcome.consecutiveFaults > 0) {
      logger.warn({ ...logFields, consecutiveFaults: outcome.consecutiveFaults }, "token poll hit a service fault; backing off");
    } else {
      logger.debug(logFields, "token polled");
    }
  }

  async function tick(): Promise<number> {
    const leased = await store.leaseDue({ owner, now: now(), leaseMs: settings.leaseMs, limit: settings.batchSize });
    await runLimited(leased, settings.concurrency, async (watched) => {
      try {
        await pollAndSave(watched);
      } catch (error) {
        // A database error while saving: the lease runs out and the token is polled again.
        logger.error({ err: error, tokenRequestId: watched.id }, "watcher could not save a poll");
      }
    });
    return leased.length;
  }

  function runOnce(): Promise<number> {
    running ??= tick().finally(() => {
      running = undefined;
    });
    return running;
  }

  function scheduleNext(delayMs: number): void {
    if (isStopping) return;
    timer = setTimeout(loop, delayMs);
    // The watcher alone must not keep a process alive (scripts, tests); the server does that.
    timer.unref?.();
  }

  /** Until the next token falls due, within [MIN_SLEEP_MS, tickMs]; tokens issued meanwhile wait a tick at most. */
  async function delayUntilNextDue(): Promise<number> {
    const nextDue = await store.nextDueAt?.();
    if (!nextDue) return settings.tickMs;
    return Math.min(settings.tickMs, Math.max(MIN_SLEEP_MS, nextDue.getTime() - now().getTime()));
  }

  async function loop(): Promise<void> {
    timer = undefined;
    try {
      const polled = await runOnce();
      failedTicks = 0;
      // A full batch means more tokens are due: go on at once rather than waiting a tick.
      scheduleNext(polled >= settings.batchSize ? 0 : await delayUntilNextDue());
    } catch (error) {
      failedTicks += 1;
      const delay = Math.min(MAX_IDLE_BACKOFF_MS, settings.tickMs * 2 ** Math.min(failedTicks, 10));
      logger.error({ err: error, retryInMs: delay }, "watcher tick failed");
      scheduleNext(delay);
    }
  }

  return {
    owner,
    runOnce,
    start() {
      if (timer || isStopping) return;
      logger.info({ owner, tickMs: settings.tickMs }, "token watcher started");
      scheduleNext(0);
    },
    async stop() {
      isStopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      try {
        await store.releaseLeases(owner);
      } catch (error) {
        logger.warn({ err: error }, "watcher could not hand back its leases; they run out on their own");
      }
      logger.info({ owner }, "token watcher stopped");
    },
  };
}

/** Runs `work` over the items with at most `limit` at once. */
async function runLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await work(item);
    }
  });
  await Promise.all(lanes);
}
