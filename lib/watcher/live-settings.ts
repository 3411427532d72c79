import "server-only";
import { env } from "@/lib/env";
import type { LiveViewSettings } from "./live-token-view";
import { watcherSettingsFrom } from "./settings";

/** The read side's settings from this process's env (the same follow limit as the watcher's). */
export function liveViewSettings(): LiveViewSettings {
  const settings = env();
  return { follow: watcherSettingsFrom(settings).follow, upstreamTimeoutMs: settings.UPSTREAM_TIMEOUT_MS };
}
