import "server-only";
import { env } from "@/lib/env";
import type { LiveViewSettings } from "./token-summary";
import { followPolicyFrom } from "@/lib/tokens/follow-policy";

/** The read side's settings from this process's env (the same follow limit and cadence as the watcher's). */
export function liveViewSettings(): LiveViewSettings {
  const settings = env();
  return {
    follow: followPolicyFrom(settings),
    issueTimeoutMs: settings.UPSTREAM_ISSUE_TIMEOUT_MS,
    // A watched token is asked about every WATCHER_WATCHED_POLL_MS; a poll may take two calls of
    // up to UPSTREAM_TIMEOUT_MS (and a failed one shows as a fault anyway). Beyond that plus a
    // margin, silence means the watcher is not getting to it (ADR 0017).
    staleAfterMs: Math.round(settings.WATCHER_WATCHED_POLL_MS * 1.1) + 2 * settings.UPSTREAM_TIMEOUT_MS + 5_000,
  };
}
