import { defaultFollowPolicy, type FollowPolicy } from "./state";

/**
 * How long a token is followed, from the app's settings: the watcher polls by it and the read side
 * derives the shown state by it, so both read it here (see lib/env.ts and ADR 0017).
 */
export function followPolicyFrom(settings: { WATCHER_FOLLOW_USED_MINUTES: number }): FollowPolicy {
  return { ...defaultFollowPolicy, followUsedForMs: settings.WATCHER_FOLLOW_USED_MINUTES * 60_000 };
}
