import type { DerivedTokenState } from "./state";

/**
 * When the watcher next asks the service about a token. Pure: the state, the time, whether anyone
 * is looking and the run of faults decide (ADR 0017). The polling budget is spent where someone
 * is looking: a token shown on a page is asked about every couple of seconds, one nobody watches
 * far less often (its outcome is still recorded, just later). The expiry moment itself is never
 * missed, a used token past its 15 minutes is followed with a growing interval, and faults back
 * off so that a struggling service is not hammered.
 */

export type PollSchedulePolicy = {
  /** An open token (waiting or in progress) while a page shows it. */
  watchedIntervalMs: number;
  /** An open token nobody is looking at: its outcome is recorded, just less promptly. */
  unwatchedIntervalMs: number;
  /** Past the expiry moment, while the expiry is not yet confirmed by the service. */
  afterExpiryIntervalMs: number;
  /** A used token past the 15 minutes: the interval grows with the time since the expiry… */
  lateResultMinIntervalMs: number;
  /** …up to this. */
  lateResultMaxIntervalMs: number;
  /**
   * After a fault: doubled for each further fault in a row, up to the max; a watched token's
   * backoff stops at the unwatched interval, so a recovery shows on the open page soon.
   */
  faultInitialDelayMs: number;
  faultMaxDelayMs: number;
  /** ± share of each interval randomised, so tokens issued together do not stay in step. */
  jitterRatio: number;
};

export const defaultPollSchedulePolicy: PollSchedulePolicy = {
  watchedIntervalMs: 2_000,
  unwatchedIntervalMs: 30_000,
  afterExpiryIntervalMs: 5_000,
  lateResultMinIntervalMs: 15_000,
  lateResultMaxIntervalMs: 5 * 60_000,
  faultInitialDelayMs: 5_000,
  faultMaxDelayMs: 5 * 60_000,
  jitterRatio: 0.1,
};

/** A poll right after the expiry moment catches the service's "Invalid Token" at once. */
const AFTER_EXPIRY_MARGIN_MS = 1_000;

export type PollScheduleInput = {
  derived: DerivedTokenState;
  now: Date;
  /** Faults in a row since the last answer (0 when the last exchange went well). */
  consecutiveFaults: number;
  /** A page showed the token lately (lib/watcher/viewers.ts). */
  isWatched: boolean;
  /** The service asked every caller to wait until then (a 429's Retry-After). */
  pausedUntil?: Date | null;
  policy?: PollSchedulePolicy;
  /** Injectable for tests; 0.5 means no jitter. */
  random?: () => number;
};

/** The next poll time, or null when the token needs no more polling. */
export function computeNextPollAt(input: PollScheduleInput): Date | null {
  const { derived, now, consecutiveFaults, isWatched } = input;
  const policy = input.policy ?? defaultPollSchedulePolicy;
  const random = input.random ?? Math.random;
  if (derived.isFinal || derived.expiresAt === null) return null;

  const nowMs = now.getTime();
  const expiresAtMs = derived.expiresAt.getTime();

  const pausedUntilMs = input.pausedUntil ? input.pausedUntil.getTime() : 0;
  const openIntervalMs = isWatched ? policy.watchedIntervalMs : policy.unwatchedIntervalMs;

  if (consecutiveFaults > 0) {
    const maxDelay = isWatched ? Math.min(policy.faultMaxDelayMs, policy.unwatchedIntervalMs) : policy.faultMaxDelayMs;
    const delay = Math.min(maxDelay, policy.faultInitialDelayMs * 2 ** Math.min(consecutiveFaults - 1, 30));
    return new Date(Math.max(pausedUntilMs, nowMs + withJitter(delay, policy.jitterRatio, random)));
  }

  let delay: number;
  switch (derived.state) {
    case "waiting":
      delay = openIntervalMs;
      break;
    case "in_progress":
      delay =
        nowMs < expiresAtMs
          ? openIntervalMs
          : clamp((nowMs - expiresAtMs) / 4, policy.lateResultMinIntervalMs, policy.lateResultMaxIntervalMs);
      break;
    case "expired":
      delay = policy.afterExpiryIntervalMs;
      break;
    default:
      // Every other state is final; reaching here means a closed token was handed in.
      return null;
  }

  const next = Math.max(pausedUntilMs, nowMs + withJitter(delay, policy.jitterRatio, random));
  // Never sleep through the expiry moment: the first answer after it decides between expired and used.
  if (nowMs < expiresAtMs && next > expiresAtMs + AFTER_EXPIRY_MARGIN_MS && pausedUntilMs <= expiresAtMs) {
    return new Date(expiresAtMs + AFTER_EXPIRY_MARGIN_MS);
  }
  return new Date(next);
}

function withJitter(delayMs: number, ratio: number, random: () => number): number {
  return Math.round(delayMs * (1 + ratio * (2 * random() - 1)));
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
