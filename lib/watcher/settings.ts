import { defaultPollSchedulePolicy } from "@/lib/tokens/poll-schedule";
import { defaultFollowPolicy } from "@/lib/tokens/state";
import type { WatcherSettings } from "./types";

type WatcherEnv = {
  WATCHER_TICK_MS: number;
  WATCHER_FRESH_POLL_MS: number;
  WATCHER_WAITING_POLL_MS: number;
  WATCHER_MAX_BACKOFF_SECONDS: number;
  WATCHER_FOLLOW_USED_MINUTES: number;
  UPSTREAM_TIMEOUT_MS: number;
};

/** The watcher's settings from the app's (see lib/env.ts and ADR 0007). */
export function watcherSettingsFrom(settings: WatcherEnv): WatcherSettings {
  const maxBackoffMs = settings.WATCHER_MAX_BACKOFF_SECONDS * 1000;
  return {
    tickMs: settings.WATCHER_TICK_MS,
    batchSize: 25,
    concurrency: 4,
    // One poll is at most two calls of three attempts each, plus their backoff: never cut short.
    leaseMs: Math.max(60_000, settings.UPSTREAM_TIMEOUT_MS * 8),
    follow: { ...defaultFollowPolicy, followUsedForMs: settings.WATCHER_FOLLOW_USED_MINUTES * 60_000 },
    schedule: {
      ...defaultPollSchedulePolicy,
      freshIntervalMs: settings.WATCHER_FRESH_POLL_MS,
      inProgressIntervalMs: settings.WATCHER_FRESH_POLL_MS,
      waitingIntervalMs: settings.WATCHER_WAITING_POLL_MS,
      faultMaxDelayMs: maxBackoffMs,
      lateResultMaxIntervalMs: Math.min(defaultPollSchedulePolicy.lateResultMaxIntervalMs, maxBackoffMs),
    },
  };
}
