import type { TokenKind } from "@/lib/domain/token-kinds";
import { tokenStateLabels, type TokenState } from "@/lib/domain/token-states";
import { expiryOf } from "./lifetime";

/**
 * The state of a token, derived in one place from what Veridesk has stored about it and the time.
 *
 * Two pure functions, no I/O and no `server-only`, so the watcher, the poll route and the browser
 * all agree:
 *  - `recordObservation` folds one answer of the service (or a fault) into the stored facts. Facts
 *    only accumulate ("was seen used at…", "result was…"), and once a token is closed nothing more
 *    is recorded, so a final state can never be downgraded by a later, odd answer.
 *  - `deriveTokenState` turns the facts and `now` into the state a teller sees.
 *
 * The service itself never says "expired": Veridesk runs its own 15-minute clock from the moment
 * the service answered with the token (provider notes: after the 15 minutes it probably says
 * "Invalid Token"). An answer seen after that moment confirms the expiry, except a late
 * "already used", which wins: the customer started in time and the result may still come.
 */

// The states and their words are the shared vocabulary (lib/domain), under the names this module
// has always exported.
export { TOKEN_STATES as tokenStates, tokenStateLabels } from "@/lib/domain/token-states";
export type TokenStateName = TokenState;

/** States after which nothing changes any more (once the watcher has closed the token). */
export const finalTokenStates: ReadonlySet<TokenStateName> = new Set([
  "successful",
  "failed",
  "expired",
  "invalid",
  "outcome_unknown",
]);

/**
 * Final states that did not verify the customer (failed, never started, unknown to the service, or
 * of unknown outcome): the customer still needs verifying, so the token's page offers "New token
 * for this customer" (lib/tokens/restart-values.ts).
 */
export const restartableTokenStates: ReadonlySet<TokenStateName> = new Set(["failed", "expired", "invalid", "outcome_unknown"]);

export type ResultStatus = "SUCCESSFUL" | "FAILED";

/** What check_token_status said, as lib/upstream reads it. */
export type UpstreamTokenState = "pending" | "used" | "invalid";

/** Why a token ended as "outcome unknown". */
export type OutcomeUnknownReason =
  /** The issuing call timed out or was never answered: the service may or may not have a token. */
  | "issuance_unanswered"
  /** The customer started, but no result arrived before Veridesk stopped following the token. */
  | "result_never_arrived";

/**
 * Everything stored about a token that its state depends on. The columns of the token table
 * follow this shape; `null` and absent mean the same ("not seen").
 */
export type TokenFacts =
  | {
      /** The issuing call did not come back with a token (timeout, lost answer, crash). */
      issuance: "unanswered";
      attemptedAt: Date;
    }
  | {
      issuance: "issued";
      /** When the service answered with the token: the start of Veridesk's 15-minute clock. */
      issuedAt: Date;
      /** The latest check_token_status answer and when it arrived. */
      lastState?: { state: UpstreamTokenState; at: Date } | null;
      /** First time the service said the token was used (or gave a result, which implies it). */
      usedSeenAt?: Date | null;
      /** First time the service said "Invalid Token". */
      invalidSeenAt?: Date | null;
      /** Latest answer of any kind (a state, a result, "no result yet"). */
      lastAnswerAt?: Date | null;
      /** The first result; a later, different one is ignored (and logged by the watcher). */
      result?: { status: ResultStatus; transactionNumber: string; error?: string | null; at: Date } | null;
      /**
       * The latest fault reaching the service (never a verification failure), and when the run
       * of faults it belongs to began. It is current while no answer arrived after it.
       */
      lastFault?: { code: string; at: Date; since: Date } | null;
      /** Set by the watcher once the state is final; nothing is recorded after it. */
      closed?: { state: TokenStateName; at: Date } | null;
    };

export type IssuedTokenFacts = Extract<TokenFacts, { issuance: "issued" }>;

/** One thing the watcher learnt in one exchange with the service. */
export type Observation =
  | { kind: "state"; state: UpstreamTokenState; at: Date }
  | { kind: "result"; status: ResultStatus; transactionNumber: string; error?: string | null; at: Date }
  | { kind: "no_result"; at: Date }
  /** token_status said "Invalid Token". */
  | { kind: "result_invalid"; at: Date }
  /** The service could not be reached or answered nonsense: an `UPSTREAM_*` code. */
  | { kind: "fault"; code: string; at: Date };

export type FollowPolicy = {
  /**
   * How long after the expiry moment a token that was seen used (but has no result) is still
   * followed; past it, the token closes as "outcome unknown". Also how long an expired token is
   * retried while the service cannot be reached to confirm it.
   */
  followUsedForMs: number;
  /**
   * An answer other than "Invalid Token" confirms an expiry only when it comes this long after the
   * expiry moment: a service whose clock runs a little behind may still let the customer start.
   */
  expiryGraceMs: number;
  /**
   * Within the 15 minutes, "Invalid Token" counts only when the service says it again at least
   * this long after the first time, with no other state in between (ADR 0043): a provider failing
   * over may say it once by mistake. After the expiry moment, once is enough.
   */
  invalidConfirmMs: number;
};

export const defaultFollowPolicy: FollowPolicy = {
  followUsedForMs: 120 * 60_000,
  expiryGraceMs: 60_000,
  invalidConfirmMs: 5_000,
};

export type DerivedTokenState = {
  state: TokenStateName;
  /** Final and closed (or closable now): the page stops polling, the watcher stops following. */
  isFinal: boolean;
  /** Null when no token was issued. */
  expiresAt: Date | null;
  outcomeUnknownReason?: OutcomeUnknownReason;
  /**
   * Set when the latest exchange with the service failed: the state shown is the last one known,
   * and the UI says the service is not answering (never that the verification failed).
   */
  serviceProblem?: { code: string; since: Date };
};

export function isFinalState(state: TokenStateName): boolean {
  return finalTokenStates.has(state);
}

/** Folds one observation into the facts; returns the facts unchanged when the token is closed. */
export function recordObservation(facts: TokenFacts, observation: Observation): TokenFacts {
  if (facts.issuance !== "issued" || facts.closed) return facts;
  const at = observation.at;
  if (observation.kind === "fault") {
    const isOngoing = facts.lastFault && !isAnsweredSince(facts, facts.lastFault.at);
    return { ...facts, lastFault: { code: observation.code, at, since: isOngoing ? facts.lastFault!.since : at } };
  }

  const next: IssuedTokenFacts = {
    ...facts,
    lastAnswerAt: latest(facts.lastAnswerAt, at),
  };

  switch (observation.kind) {
    case "state":
      // Answers can arrive out of order (a slow call overtaken by a fast one): the latest wins.
      if (!facts.lastState || facts.lastState.at.getTime() <= at.getTime()) {
        next.lastState = { state: observation.state, at };
      }
      if (observation.state === "used") next.usedSeenAt = earliest(facts.usedSeenAt, at);
      if (observation.state === "invalid") next.invalidSeenAt = earliest(facts.invalidSeenAt, at);
      // "Pending" after an "Invalid Token" takes it back: a later "Invalid Token" starts over.
      if (observation.state === "pending" && facts.invalidSeenAt && facts.invalidSeenAt.getTime() < at.getTime()) next.invalidSeenAt = null;
      return next;
    case "result":
      next.usedSeenAt = earliest(facts.usedSeenAt, at);
      next.result = facts.result ?? {
        status: observation.status,
        transactionNumber: observation.transactionNumber,
        error: observation.error ?? null,
        at,
      };
      return next;
    case "no_result":
      return next;
    case "result_invalid":
      next.invalidSeenAt = earliest(facts.invalidSeenAt, at);
      return next;
  }
}

/** Marks the facts closed with the state derived now, when that state is final. */
export function closeIfFinal(facts: TokenFacts, now: Date, policy: FollowPolicy = defaultFollowPolicy): TokenFacts {
  if (facts.issuance !== "issued" || facts.closed) return facts;
  const derived = deriveTokenState(facts, now, policy);
  return derived.isFinal ? { ...facts, closed: { state: derived.state, at: now } } : facts;
}

/** The state a teller sees, from the stored facts and the time. */
export function deriveTokenState(
  facts: TokenFacts,
  now: Date,
  policy: FollowPolicy = defaultFollowPolicy,
): DerivedTokenState {
  if (facts.issuance === "unanswered") {
    return { state: "outcome_unknown", isFinal: true, expiresAt: null, outcomeUnknownReason: "issuance_unanswered" };
  }

  const expiresAt = expiryOf(facts.issuedAt);
  const serviceProblem = readServiceProblem(facts);
  const withProblem = (derived: DerivedTokenState): DerivedTokenState =>
    serviceProblem && !derived.isFinal ? { ...derived, serviceProblem } : derived;

  // Closed is closed: whatever was recorded or whatever the time, the state stays as it was.
  if (facts.closed) {
    return {
      state: facts.closed.state,
      isFinal: true,
      expiresAt,
      ...(facts.closed.state === "outcome_unknown" ? { outcomeUnknownReason: "result_never_arrived" as const } : {}),
    };
  }

  // A result is the strongest fact of all, whatever arrived before or after it.
  if (facts.result) {
    return { state: facts.result.status === "SUCCESSFUL" ? "successful" : "failed", isFinal: true, expiresAt };
  }

  const nowMs = now.getTime();
  const expiresAtMs = expiresAt.getTime();

  // Used wins over expiry and over a later "Invalid Token": the customer started in time.
  if (facts.usedSeenAt) {
    if (nowMs >= expiresAtMs + policy.followUsedForMs) {
      return { state: "outcome_unknown", isFinal: true, expiresAt, outcomeUnknownReason: "result_never_arrived" };
    }
    return withProblem({ state: "in_progress", isFinal: false, expiresAt });
  }

  // "Invalid Token" within the 15 minutes, said twice: the service does not know a token it just gave us.
  if (facts.invalidSeenAt && facts.invalidSeenAt.getTime() < expiresAtMs && isInvalidConfirmed(facts, policy)) {
    return { state: "invalid", isFinal: true, expiresAt };
  }

  if (nowMs >= expiresAtMs) {
    return withProblem({ state: "expired", isFinal: isExpiryConfirmed(facts, expiresAtMs, nowMs, policy), expiresAt });
  }

  return withProblem({ state: "waiting", isFinal: false, expiresAt });
}

/**
 * Expired by the clock is shown at once; it becomes final when the service has had its say
 * after the expiry moment ("Invalid Token", or anything but "used" once the grace has passed),
 * or when the service stayed unreachable for as long as a used token would have been followed.
 */
function isExpiryConfirmed(facts: IssuedTokenFacts, expiresAtMs: number, nowMs: number, policy: FollowPolicy): boolean {
  if (facts.invalidSeenAt && facts.invalidSeenAt.getTime() >= expiresAtMs) return true;
  // A first "Invalid Token" inside the 15 minutes, said again after them.
  if (facts.lastState?.state === "invalid" && facts.lastState.at.getTime() >= expiresAtMs) return true;
  if (facts.lastAnswerAt && facts.lastAnswerAt.getTime() >= expiresAtMs + policy.expiryGraceMs) return true;
  return nowMs >= expiresAtMs + policy.followUsedForMs;
}

/**
 * "Invalid Token" said a second time: the latest state answer is "Invalid Token" again, at least
 * `invalidConfirmMs` after the first (a "Pending Token" in between cleared the first).
 */
export function isInvalidConfirmed(facts: IssuedTokenFacts, policy: FollowPolicy = defaultFollowPolicy): boolean {
  if (!facts.invalidSeenAt) return false;
  const last = facts.lastState;
  return Boolean(last && last.state === "invalid" && last.at.getTime() - facts.invalidSeenAt.getTime() >= policy.invalidConfirmMs);
}

/**
 * When to ask again about a token the service called invalid once within its 15 minutes and not
 * yet twice (null otherwise): `invalidConfirmMs` after the first answer, so the second comes "a
 * few seconds apart", not at the usual cadence.
 */
export function invalidRecheckAt(facts: IssuedTokenFacts, policy: FollowPolicy = defaultFollowPolicy): Date | null {
  if (!facts.invalidSeenAt || facts.closed || facts.usedSeenAt || facts.result) return null;
  if (facts.invalidSeenAt.getTime() >= expiryOf(facts.issuedAt).getTime() || isInvalidConfirmed(facts, policy)) return null;
  return new Date(facts.invalidSeenAt.getTime() + policy.invalidConfirmMs);
}

function readServiceProblem(facts: IssuedTokenFacts): { code: string; since: Date } | undefined {
  const fault = facts.lastFault;
  if (!fault || isAnsweredSince(facts, fault.at)) return undefined;
  return { code: fault.code, since: fault.since };
}

function isAnsweredSince(facts: IssuedTokenFacts, moment: Date): boolean {
  return Boolean(facts.lastAnswerAt && facts.lastAnswerAt.getTime() >= moment.getTime());
}

function earliest(current: Date | null | undefined, candidate: Date): Date {
  return current && current.getTime() <= candidate.getTime() ? current : candidate;
}

function latest(current: Date | null | undefined, candidate: Date): Date {
  return current && current.getTime() >= candidate.getTime() ? current : candidate;
}


/**
 * The state's words for a token of this kind: a fingerprint token is waiting for the customer who
 * is already at the counter, so it says what to do instead of "Waiting for customer".
 */
export function tokenStateLabelFor(state: TokenStateName, kind: TokenKind | undefined): string {
  if (state === "waiting" && kind === "fingerprint") return fingerprintWaitingLabel;
  return tokenStateLabels[state];
}

export const fingerprintWaitingLabel = "Customer at the counter: place the finger on the scanner";
