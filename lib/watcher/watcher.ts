import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { metrics } from "@/lib/metrics";
import { idleWaitMs, nudge } from "@/lib/nudges";
import { isFinalState } from "@/lib/tokens/state";
import { pollToken } from "./poll-token";
import type { TokenStatusSource, WatchedToken, WatcherLogger, WatcherSettings, WatcherStore } from "./types";

/**
 * The one loop that keeps open tokens up to date, whoever is looking at them (ADRs 0007, 0017).
 *
 * It keeps up to `maxInFlight` polls running, each on its own: whenever a slot is free it leases
 * due tokens for the free slots (the store makes sure several app instances never poll the same
 * token at once and that all of them together stay within the provider's calls-per-second
 * budget), and a poll that finishes frees its slot at once. So a status call that hangs holds one
 * slot until its own timeout and delays no other token. Each call is made once; the next poll is
 * the retry. A lease is short and renewed while its poll runs, so a crashed instance's tokens are
 * free again within seconds. Everything it knows is in the database: a restarted process simply
 * carries on, and a fault of the service or of the database is logged, backed off from, and never
 * stops the loop.
 *
 * Idle, it costs one cheap question now and then (ADR 0047): it sleeps until the next open token
 * falls due, but at most a wait that doubles with each look that found nothing, from `tickMs` up
 * to `idleMaxMs`; a look at that bound only asks when the next token is due, and leases only when
 * one is. A token issued in this process, or a page opened on one, wakes it at once (`wake`).
 */

export type Watcher = {
  /** Leases what is due for the free slots and waits for those polls (tests). Returns how many it polled. */
  runOnce(): Promise<number>;
  /** Looks for due tokens now rather than at the next wake-up (a page just opened on a token). */
  wake(): void;
  /** Stops leasing, waits for the polls under way and hands back their leases. */
  stop(): Promise<void>;
  /** For the admin's view, readiness and the logs: `lastLoopAt` is when the loop last looked for due tokens. */
  describe(): { owner: string; inFlight: number; pausedUntil: Date | null; lastLoopAt: Date | null; isStopping: boolean };
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

  const inFlight = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let timerDueAt = Number.POSITIVE_INFINITY;
  let isStarted = false;
  let isStopping = false;
  let filling: Promise<number> | undefined;
  let fillAgain = false;
  let failedFills = 0;
  let pausedUntil: Date | null = null;
  let renewTimer: NodeJS.Timeout | undefined;
  let lastLoopAt: Date | null = null;
  // Looks in a row that found nothing due: the idle wait doubles with each, up to idleMaxMs.
  let emptyLooks = 0;
  // The pending timer is an idle look: ask when the next token is due before leasing anything.
  let isProbeNext = false;

  async function pollAndSave(watched: WatchedToken): Promise<void> {
    const startedAt = now();
    metrics().watcherPolls.inc();
    if (watched.dueAt) metrics().watcherLagSeconds.set(Math.max(0, startedAt.getTime() - watched.dueAt.getTime()) / 1000);
    const isWatched = watched.lastViewedAt !== null && startedAt.getTime() - watched.lastViewedAt.getTime() <= settings.watchedWindowMs;
    const outcome = await pollToken({
      watched,
      source,
      now,
      follow: settings.follow,
      schedule: settings.schedule,
      isWatched,
      defaultPauseMs: settings.defaultPauseMs,
      random: dependencies.random,
    });
    if (outcome.pause) {
      pausedUntil = outcome.pause.until;
      await store.pauseCalls(outcome.pause);
      logger.warn({ until: outcome.pause.until.toISOString(), reason: outcome.pause.reason }, "the service asked us to slow down: every watcher pauses");
    }
    const saved = await store.saveOutcome({ watched, owner, outcome, now: now() });
    const logFields = {
      tokenRequestId: watched.id,
      token: watched.token,
      state: outcome.state,
      calls: outcome.calls,
      isWatched,
      durationMs: now().getTime() - startedAt.getTime(),
      nextPollAt: outcome.nextPollAt?.toISOString() ?? null,
    };
    if (saved && outcome.stateBefore !== outcome.state) {
      // A closed token wrote its webhook event in the same commit; a changed row is the risk rules' to read.
      if (outcome.facts.closed) nudge("outbox");
      nudge("risk");
    }
    if (!saved) {
      logger.warn(logFields, "watcher lost its lease before saving; the next holder polls again");
    } else if (outcome.stateBefore !== outcome.state) {
      logger.info({ ...logFields, from: outcome.stateBefore }, "token state changed");
      if (isFinalState(outcome.state)) metrics().tokensFinished.inc({ state: outcome.state });
    } else if (outcome.consecutiveFaults > 0) {
      logger.warn({ ...logFields, consecutiveFaults: outcome.consecutiveFaults }, "token poll hit a service fault; backing off");
    } else {
      logger.debug(logFields, "token polled");
    }
  }

  /** Starts one poll in its own slot; the slot is freed (and refilled) the moment it ends. */
  function startPoll(watched: WatchedToken): Promise<void> {
    const running = pollAndSave(watched)
      .catch((error: unknown) => {
        // A database error while saving: the lease runs out and the token is polled again.
        logger.error({ err: error, tokenRequestId: watched.id }, "watcher could not save a poll");
      })
      .finally(() => {
        inFlight.delete(watched.id);
        if (isStarted && !isStopping) requestFill(0);
      });
    inFlight.set(watched.id, running);
    return running;
  }

  /** One lease round for the free slots. Returns how many polls it started. */
  async function fill(): Promise<number> {
    const free = settings.maxInFlight - inFlight.size;
    if (free <= 0 || isStopping) return 0;
    const grant = await store.leaseDue({ owner, now: now(), leaseMs: settings.leaseMs, limit: free, callsPerSecond: settings.callsPerSecond });
    pausedUntil = grant.pausedUntil;
    for (const watched of grant.tokens) void startPoll(watched);
    emptyLooks = grant.tokens.length > 0 ? 0 : emptyLooks + 1;
    if (isStarted && !isStopping) scheduleAfterFill(grant, free);
    return grant.tokens.length;
  }

  /** An idle look: one cheap question (when is the next token due?), and a lease only if one is due now. */
  async function look(): Promise<number> {
    const nextDue = await store.nextDueAt!();
    if (nextDue && nextDue.getTime() <= now().getTime()) return fill();
    emptyLooks += 1;
    if (isStarted && !isStopping) sleepUntil(nextDue);
    return 0;
  }

  const currentIdleWaitMs = () => idleWaitMs(emptyLooks, settings.tickMs, settings.idleMaxMs ?? settings.tickMs);

  /** Sleeps until `nextDue` (a lease then), or for the idle wait if that is sooner (a look then). */
  function sleepUntil(nextDue: Date | null): void {
    const wait = currentIdleWaitMs();
    const untilDue = nextDue ? nextDue.getTime() - now().getTime() : Number.POSITIVE_INFINITY;
    if (untilDue <= wait) requestFill(Math.max(MIN_SLEEP_MS, untilDue));
    else requestFill(wait, { isProbe: true });
  }

  function scheduleAfterFill(grant: Awaited<ReturnType<WatcherStore["leaseDue"]>>, free: number): void {
    const nowMs = now().getTime();
    if (grant.pausedUntil) return requestFill(grant.pausedUntil.getTime() - nowMs);
    if (grant.budgetSpentUntil) return requestFill(grant.budgetSpentUntil.getTime() - nowMs);
    // Every free slot filled: more may be due, and the next finished poll refills at once.
    if (grant.tokens.length >= free) return;
    // A store that cannot say when the next token is due is simply leased from after the wait.
    if (!store.nextDueAt) return requestFill(currentIdleWaitMs());
    store.nextDueAt().then(sleepUntil, (error: unknown) => {
      logger.error({ err: error }, "watcher could not read when the next token is due");
      requestFill(settings.tickMs);
    });
  }

  /**
   * Runs a fill after `delayMs` (a look first, when `isProbe`), unless one is already due sooner
   * (a sooner look finds what a later fill would); a fill under way runs again once done.
   */
  function requestFill(delayMs: number, options: { isProbe?: boolean } = {}): void {
    if (!isStarted || isStopping) return;
    const dueAt = Date.now() + Math.max(0, delayMs);
    if (timer && timerDueAt <= dueAt) return;
    if (timer) clearTimeout(timer);
    timerDueAt = dueAt;
    isProbeNext = options.isProbe === true && store.nextDueAt !== undefined;
    timer = setTimeout(onTimer, Math.max(0, delayMs));
    // The watcher alone must not keep a process alive (scripts, tests); the server does that.
    timer.unref?.();
  }

  function onTimer(): void {
    timer = undefined;
    timerDueAt = Number.POSITIVE_INFINITY;
    const isProbe = isProbeNext;
    isProbeNext = false;
    lastLoopAt = now();
    if (filling) {
      fillAgain = true;
      return;
    }
    filling = (isProbe ? look() : fill())
      .then((started) => {
        failedFills = 0;
        return started;
      })
      .catch((error: unknown) => {
        failedFills += 1;
        const delay = Math.min(MAX_IDLE_BACKOFF_MS, settings.tickMs * 2 ** Math.min(failedFills, 10));
        logger.error({ err: error, retryInMs: delay }, "watcher could not lease tokens");
        requestFill(delay);
        return 0;
      })
      .finally(() => {
        filling = undefined;
        if (fillAgain) {
          fillAgain = false;
          requestFill(0);
        }
      });
  }

  /** Keeps the leases of the polls under way alive: a lease only has to outlast a stalled renewal. */
  function renewRunningLeases(): void {
    const ids = [...inFlight.keys()];
    if (ids.length === 0) return;
    store.renewLeases({ owner, ids, now: now(), leaseMs: settings.leaseMs }).then(
      (held) => {
        if (held.length < ids.length) logger.warn({ lost: ids.length - held.length }, "watcher lost leases of polls under way");
      },
      (error: unknown) => logger.warn({ err: error }, "watcher could not renew its leases"),
    );
  }

  async function runOnce(): Promise<number> {
    const started = await fill();
    await Promise.all([...inFlight.values()]);
    return started;
  }

  return {
    owner,
    runOnce,
    wake() {
      emptyLooks = 0;
      requestFill(0);
    },
    describe() {
      return { owner, inFlight: inFlight.size, pausedUntil: pausedUntil && pausedUntil > now() ? pausedUntil : null, lastLoopAt, isStopping };
    },
    start() {
      if (isStarted || isStopping) return;
      isStarted = true;
      logger.info({ owner, tickMs: settings.tickMs, idleMaxMs: settings.idleMaxMs ?? settings.tickMs, maxInFlight: settings.maxInFlight, leaseMs: settings.leaseMs }, "token watcher started");
      renewTimer = setInterval(renewRunningLeases, Math.max(1_000, Math.floor(settings.leaseMs / 3)));
      renewTimer.unref?.();
      requestFill(0);
    },
    async stop() {
      isStopping = true;
      if (timer) clearTimeout(timer);
      if (renewTimer) clearInterval(renewTimer);
      timer = undefined;
      await filling?.catch(() => undefined);
      await Promise.all([...inFlight.values()]);
      try {
        await store.releaseLeases(owner);
      } catch (error) {
        logger.warn({ err: error }, "watcher could not hand back its leases; they run out on their own");
      }
      logger.info({ owner }, "token watcher stopped");
    },
  };
}
