/**
 * In-process nudges for the background loops (ADR 0047). A loop that finds nothing to do backs
 * off; a write that gives it work says so here, and the loop looks again at once (or, for the
 * risk rules, at its usual pace), so nothing written by this process waits for the back-off.
 * Only this process hears a nudge: work written by another instance is found at the loop's next
 * idle look, within its documented idle interval.
 *
 * On globalThis: Next compiles instrumentation.ts (which starts the loops) and the routes (which
 * write the work) into separate bundles, each with its own copy of this module.
 */

export type NudgeTopic =
  /** A token became due for a poll: issued, attached from an SMS, its late answer recorded (the watcher). */
  | "tokens"
  /** An outbox row was committed (the webhook delivery worker). */
  | "outbox"
  /** A token request or an audit event was written (the risk rules' pass). */
  | "risk"
  /** An issuing attempt was recorded: it could go stale if its answer is lost (the stale-attempt sweep). */
  | "attempts";

type Listeners = Map<NudgeTopic, Set<() => void>>;

const globalForNudges = globalThis as typeof globalThis & { verideskNudges?: Listeners };

function listeners(): Listeners {
  globalForNudges.verideskNudges ??= new Map();
  return globalForNudges.verideskNudges;
}

/** Tells this process's loop for `topic` that there is work; cheap, never throws, a no-op without a listener. */
export function nudge(topic: NudgeTopic): void {
  for (const listener of listeners().get(topic) ?? []) {
    try {
      listener();
    } catch {
      // A listener only schedules a timer; a fault there must never fail the write that nudged.
    }
  }
}

/** Calls `listener` on every nudge of `topic` until the returned function is called. */
export function onNudge(topic: NudgeTopic, listener: () => void): () => void {
  const forTopic = listeners().get(topic) ?? new Set();
  listeners().set(topic, forTopic);
  forTopic.add(listener);
  return () => forTopic.delete(listener);
}

/**
 * How long an idle loop waits before it looks again, after `emptyLooks` looks in a row that found
 * nothing: `baseMs`, doubling with each, at most `maxMs` (never less than `baseMs`). The one
 * back-off of the watcher, the webhook worker and the risk pass (ADR 0047).
 */
export function idleWaitMs(emptyLooks: number, baseMs: number, maxMs: number): number {
  return Math.min(Math.max(baseMs, maxMs), baseMs * 2 ** Math.min(Math.max(0, emptyLooks - 1), 16));
}
