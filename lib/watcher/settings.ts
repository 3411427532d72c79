import { defaultPollSchedulePolicy } from "@/lib/tokens/poll-schedule";
import { followPolicyFrom } from "@/lib/tokens/follow-policy";
import type { WatcherSettings } from "./types";

type WatcherEnv = {
  WATCHER_TICK_MS: number;
  /** Absent in tests that build the settings by hand: the default then. */
  WATCHER_IDLE_MAX_MS?: number;
  WATCHER_WATCHED_POLL_MS: number;
  WATCHER_UNWATCHED_POLL_MS: number;
  WATCHER_MAX_IN_FLIGHT: number;
  WATCHER_CALLS_PER_SECOND: number;
  WATCHER_MAX_BACKOFF_SECONDS: number;
  WATCHER_FOLLOW_USED_MINUTES: number;
  UPSTREAM_TIMEOUT_MS: number;
};

/**
 * A page polls every 2 s and the dashboard every 3 s: a token shown within the last few polls is
 * being looked at. Short enough that a closed page stops costing the provider within seconds.
 */
export const WATCHED_WINDOW_MS = 10_000;

/**
 * How long an idle watcher may go without looking (ADR 0047): a token written by another instance
 * (one issued here wakes the loop at once) is found within this, and readiness allows three.
 */
export const WATCHER_IDLE_MAX_MS_DEFAULT = 10_000;

/** The watcher's settings from the app's (see lib/env.ts and ADRs 0007, 0017). */
export function watcherSettingsFrom(settings: WatcherEnv): WatcherSettings {
  const maxBackoffMs = settings.WATCHER_MAX_BACKOFF_SECONDS * 1000;
  return {
    tickMs: settings.WATCHER_TICK_MS,
    idleMaxMs: settings.WATCHER_IDLE_MAX_MS ?? WATCHER_IDLE_MAX_MS_DEFAULT,
    maxInFlight: settings.WATCHER_MAX_IN_FLIGHT,
    // Renewed every third of it while a poll runs, so it only has to outlast a stalled renewal:
    // a crashed instance's tokens are free again within this.
    leaseMs: Math.max(10_000, Math.round(settings.UPSTREAM_TIMEOUT_MS / 2)),
    callsPerSecond: settings.WATCHER_CALLS_PER_SECOND,
    watchedWindowMs: WATCHED_WINDOW_MS,
    defaultPauseMs: 30_000,
    follow: followPolicyFrom(settings),
    schedule: {
      ...defaultPollSchedulePolicy,
      watchedIntervalMs: settings.WATCHER_WATCHED_POLL_MS,
      unwatchedIntervalMs: settings.WATCHER_UNWATCHED_POLL_MS,
      faultMaxDelayMs: maxBackoffMs,
      lateResultMaxIntervalMs: Math.min(defaultPollSchedulePolicy.lateResultMaxIntervalMs, maxBackoffMs),
    },
  };
}
