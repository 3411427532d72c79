import type { FollowPolicy, IssuedTokenFacts, TokenStateName } from "@/lib/tokens/state";
import type { PollSchedulePolicy } from "@/lib/tokens/poll-schedule";

/**
 * The watcher's view of the world, as interfaces: where open tokens are kept (the database, or a
 * map in tests) and who answers about them (the service client, or a fake). The loop in
 * watcher.ts depends on nothing else, so it is tested without a database or a network.
 */

/** A token the watcher follows, as leased from the store. */
export type WatchedToken = {
  /** The row's id (the token request's uuid). */
  id: string;
  /** The service's token value. */
  token: string;
  branchId: string | null;
  facts: IssuedTokenFacts;
  /** The state last written by a watcher; a change from it is an event. */
  storedState: TokenStateName;
  /** Faults in a row since the last answer; drives the backoff. */
  consecutiveFaults: number;
  /** When a page last showed the token: the cadence depends on whether anyone is looking. */
  lastViewedAt: Date | null;
  /** When this poll was due: how late it starts is the watcher's lag (metrics). */
  dueAt: Date | null;
};

/** Something worth keeping in the token's history and the audit trail. */
export type TokenEventDraft = {
  type: "state_changed" | "service_unreachable" | "service_recovered";
  at: Date;
  /** No personal data: states, codes, the transaction number, the service's error text. */
  details: Record<string, string | null>;
};

export type PollOutcome = {
  facts: IssuedTokenFacts;
  /** The state stored before this poll, and the one derived after it. */
  stateBefore: TokenStateName;
  state: TokenStateName;
  isFinal: boolean;
  nextPollAt: Date | null;
  consecutiveFaults: number;
  events: TokenEventDraft[];
  /** Upstream calls made, for the log line. */
  calls: number;
  /** The service asked every caller to wait (a 429): until when, and why. */
  pause?: { until: Date; reason: string };
};

/** What one lease round gave this watcher. */
export type LeaseGrant = {
  tokens: WatchedToken[];
  /** Every watcher waits until then: the service's Retry-After. */
  pausedUntil: Date | null;
  /** The calls-per-second budget of all instances is spent until then. */
  budgetSpentUntil: Date | null;
};

export interface WatcherStore {
  /**
   * Leases up to `limit` tokens whose next poll is due and that no live lease holds, for
   * `leaseMs`, within the calls-per-second budget shared by all instances, and none while the
   * service has asked everyone to pause. Several processes may call this at once; each token goes
   * to one of them.
   */
  leaseDue(input: { owner: string; now: Date; leaseMs: number; limit: number; callsPerSecond: number }): Promise<LeaseGrant>;
  /** Extends the leases `owner` still holds on these rows; returns the ids it still holds. */
  renewLeases(input: { owner: string; ids: string[]; now: Date; leaseMs: number }): Promise<string[]>;
  /** Every watcher of every instance waits until `until` (never shortens a longer pause). */
  pauseCalls(input: { until: Date; reason: string }): Promise<void>;
  /**
   * Writes the poll's outcome and its events and ends the lease, only if `owner` still holds it
   * (a poller whose lease ran out must not overwrite newer facts). Returns whether it was written.
   */
  saveOutcome(input: { watched: WatchedToken; owner: string; outcome: PollOutcome; now: Date }): Promise<boolean>;
  /** Ends every lease `owner` holds, so its tokens are due again at once (clean stop). */
  releaseLeases(owner: string): Promise<void>;
  /**
   * When the next open token can be leased (null: none open): its next poll, or the end of the
   * lease another poll holds on it, whichever is later. The loop sleeps until then rather than a
   * whole tick, so polls keep to their schedule instead of the tick's grid, and an idle loop asks
   * only this one cheap question.
   */
  nextDueAt?(): Promise<Date | null>;
}

/** The two read endpoints of the service, as lib/upstream's client offers them. */
export type TokenStatusSource = {
  checkTokenState(token: string): Promise<{ state: "pending" | "used" | "invalid" }>;
  getTokenResult(
    token: string,
  ): Promise<
    | { kind: "result"; status: "SUCCESSFUL" | "FAILED"; transactionNumber: string; error?: string }
    | { kind: "no-result" }
    | { kind: "invalid" }
  >;
};

export type WatcherSettings = {
  /** The loop's first wait after a look that found nothing due, and its back-off base after a failure. */
  tickMs: number;
  /**
   * The longest the loop sleeps, once idle, before it looks for due tokens again (at least
   * `tickMs`): how soon a token written by another instance is found, and how often an idle app
   * asks its database. Empty looks double the wait from `tickMs` up to this; a token issued in
   * this process, or a page opened on one, wakes the loop at once (ADR 0047).
   */
  idleMaxMs?: number;
  /** How many polls run at once; a poll whose call hangs holds one slot until its timeout. */
  maxInFlight: number;
  /** How long a lease lasts; renewed every third of it while the poll runs (a crash costs this). */
  leaseMs: number;
  /** Status calls per second across all instances. */
  callsPerSecond: number;
  /** A token shown on a page within this long counts as watched. */
  watchedWindowMs: number;
  /** How long to pause everyone after a 429 that gave no Retry-After. */
  defaultPauseMs: number;
  follow: FollowPolicy;
  schedule: PollSchedulePolicy;
};

export type WatcherLogger = {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
};
