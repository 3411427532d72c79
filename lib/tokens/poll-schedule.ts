import type { DerivedTokenState } from "./state";

/**
 * When the watcher next asks the service about a token. Pure: the state, the time and the run of
 * faults decide. The interval follows what can happen next: a fresh token is asked about every few
 * seconds (the customer may be on the link already), an older one less often, the expiry moment
 * itself is never missed, a used token past its 15 minutes is followed with a growing interval,
 * and faults back off so that a struggling service is not hammered.
 */

export type PollSchedulePolicy = {
  /** While the token is younger than `freshForMs`. */
  freshIntervalMs: number;
  freshForMs: number;
  /** While the token waits for its customer after the fresh period. */
  waitingIntervalMs: number;
  /** While the customer is verifying, within the 15 minutes: the result is minutes away at most. */
  inProgressIntervalMs: number;
  /** Past the expiry moment, while the expiry is not yet confirmed by the service. */
  afterExpiryIntervalMs: number;
  /** A used token past the 15 minutes: the interval grows with the time since the expiry… */
  lateResultMinIntervalMs: number;
  /** …up to this. */
  lateResultMaxIntervalMs: number;
  /** After a fault: doubled for each further fault in a row, up to the max. */
  faultInitialDelayMs: number;
  faultMaxDelayMs: number;
  /** ± share of each interval randomised, so tokens issued together do not stay in step. */
  jitterRatio: number;
};

export const defaultPollSchedulePolicy: PollSchedulePolicy = {
  freshIntervalMs: 3_000,
  freshForMs: 3 * 60_000,
  waitingIntervalMs: 6_000,
  inProgressIntervalMs: 3_000,
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
  issuedAt: Date;
  now: Date;
  /** Faults in a row since the last answer (0 when the last exchange went well). */
  consecutiveFaults: number;
  policy?: PollSchedulePolicy;
  /** Injectable for tests; 0.5 means no jitter. */
  random?: () => number;
};

/** The next poll time, or null when the token needs no more polling. */
export function computeNextPollAt(input: PollScheduleInput): Date | null {
  const { derived, issuedAt, now, consecutiveFaults } = input;
  const policy = input.policy ?? defaultPollSchedulePolicy;
  const random = input.random ?? Math.random;
  if (derived.isFinal || derived.expiresAt === null) return null;

  const nowMs = now.getTime();
  const expiresAtMs = derived.expiresAt.getTime();

  if (consecutiveFaults > 0) {
    const delay = Math.min(policy.faultMaxDelayMs, policy.faultInitialDelayMs * 2 ** Math.min(consecutiveFaults - 1, 30));
    return new Date(nowMs + withJitter(delay, policy.jitterRatio, random));
  }

  const ageMs = nowMs - issuedAt.getTime();
  let delay: number;
  switch (derived.state) {
    case "waiting":
      delay = ageMs < policy.freshForMs ? policy.freshIntervalMs : policy.waitingIntervalMs;
      break;
    case "in_progress":
      delay =
        nowMs < expiresAtMs
          ? policy.inProgressIntervalMs
          : clamp((nowMs - expiresAtMs) / 4, policy.lateResultMinIntervalMs, policy.lateResultMaxIntervalMs);
      break;
    case "expired":
      delay = policy.afterExpiryIntervalMs;
      break;
    default:
      // Every other state is final; reaching here means a closed token was handed in.
      return null;
  }

  const next = nowMs + withJitter(delay, policy.jitterRatio, random);
  // Never sleep through the expiry moment: the first answer after it decides between expired and used.
  if (nowMs < expiresAtMs && next > expiresAtMs + AFTER_EXPIRY_MARGIN_MS) {
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
