import { isAppError } from "@/lib/errors";
import { computeNextPollAt, type PollSchedulePolicy } from "@/lib/tokens/poll-schedule";
import {
  closeIfFinal,
  deriveTokenState,
  invalidRecheckAt,
  recordObservation,
  type FollowPolicy,
  type IssuedTokenFacts,
  type Observation,
  type TokenFacts,
} from "@/lib/tokens/state";
import type { PollOutcome, TokenEventDraft, TokenStatusSource, WatchedToken } from "./types";

/**
 * One poll of one token: ask the service what it knows, fold the answers into the facts, and say
 * what changed and when to ask again. check_token_status first; token_status once the token is
 * known to be used (in the same poll when check_token_status has just said so, so a result shows
 * up without waiting a whole interval). A fault of the service is recorded as such and never
 * becomes a verification outcome.
 */
export async function pollToken(input: {
  watched: WatchedToken;
  source: TokenStatusSource;
  now: () => Date;
  follow: FollowPolicy;
  schedule: PollSchedulePolicy;
  /** A page showed the token lately: it is polled at the watched cadence. */
  isWatched: boolean;
  /** How long everyone pauses after a 429 without Retry-After. */
  defaultPauseMs: number;
  random?: () => number;
}): Promise<PollOutcome> {
  const { watched, source, now, follow } = input;
  const before = watched.facts;
  let facts: TokenFacts = before;
  let calls = 0;
  let faulted = false;
  let pause: PollOutcome["pause"];

  const observe = (observation: Observation) => {
    facts = recordObservation(facts, observation);
  };
  const ask = async <T>(call: () => Promise<T>): Promise<T | undefined> => {
    calls += 1;
    try {
      return await call();
    } catch (error) {
      faulted = true;
      const at = now();
      observe({ kind: "fault", code: readFaultCode(error), at });
      // The service asked every caller to slow down, not just about this token.
      if (isAppError(error) && error.code === "UPSTREAM_RATE_LIMITED") {
        const waitMs = error.retryAfterMs ?? input.defaultPauseMs;
        pause = { until: new Date(at.getTime() + waitMs), reason: `429 from the service, ${error.retryAfterMs === undefined ? "no Retry-After" : `Retry-After ${waitMs} ms`}` };
      }
      return undefined;
    }
  };

  let isKnownUsed = Boolean(before.usedSeenAt);
  if (!isKnownUsed) {
    const answer = await ask(() => source.checkTokenState(watched.token));
    if (answer) {
      observe({ kind: "state", state: answer.state, at: now() });
      isKnownUsed = answer.state === "used";
    }
  }
  if (isKnownUsed && !faulted) {
    const answer = await ask(() => source.getTokenResult(watched.token));
    if (answer?.kind === "result") {
      observe({ kind: "result", status: answer.status, transactionNumber: answer.transactionNumber, error: answer.error ?? null, at: now() });
    } else if (answer?.kind === "no-result") {
      observe({ kind: "no_result", at: now() });
    } else if (answer?.kind === "invalid") {
      observe({ kind: "result_invalid", at: now() });
    }
  }

  const finishedAt = now();
  facts = closeIfFinal(facts, finishedAt, follow);
  const issued = facts as IssuedTokenFacts;
  const derived = deriveTokenState(issued, finishedAt, follow);
  const consecutiveFaults = faulted ? watched.consecutiveFaults + 1 : 0;
  const scheduled = computeNextPollAt({
    derived,
    now: finishedAt,
    consecutiveFaults,
    isWatched: input.isWatched,
    pausedUntil: pause?.until,
    policy: input.schedule,
    random: input.random,
  });
  // One "Invalid Token" within the 15 minutes is not enough (ADR 0043): ask again a few seconds
  // after it, sooner than the usual cadence, unless everyone is asked to wait.
  const recheckAt = derived.isFinal || pause ? null : invalidRecheckAt(issued, follow);
  const nextPollAt =
    recheckAt && scheduled && recheckAt < scheduled ? new Date(Math.max(recheckAt.getTime(), finishedAt.getTime())) : scheduled;

  return {
    facts: issued,
    stateBefore: watched.storedState,
    state: derived.state,
    isFinal: derived.isFinal,
    nextPollAt,
    consecutiveFaults,
    events: describeChanges({ before, after: issued, stateBefore: watched.storedState, derived, at: finishedAt }),
    calls,
    ...(pause ? { pause } : {}),
  };
}

function describeChanges(input: {
  before: IssuedTokenFacts;
  after: IssuedTokenFacts;
  stateBefore: PollOutcome["stateBefore"];
  derived: ReturnType<typeof deriveTokenState>;
  at: Date;
}): TokenEventDraft[] {
  const { before, after, stateBefore, derived, at } = input;
  const events: TokenEventDraft[] = [];
  const wasFaulting = Boolean(before.lastFault && !(before.lastAnswerAt && before.lastAnswerAt >= before.lastFault.at));
  const isFaulting = Boolean(derived.serviceProblem);
  if (!wasFaulting && isFaulting) {
    events.push({ type: "service_unreachable", at, details: { code: derived.serviceProblem!.code } });
  }
  if (wasFaulting && after.lastAnswerAt && before.lastFault && after.lastAnswerAt >= before.lastFault.at) {
    events.push({ type: "service_recovered", at, details: {} });
  }
  if (stateBefore !== derived.state) {
    events.push({
      type: "state_changed",
      // A token expires at its moment, not when the watcher got round to confirming it.
      at: derived.state === "expired" && derived.expiresAt && derived.expiresAt < at ? derived.expiresAt : at,
      details: {
        from: stateBefore,
        to: derived.state,
        ...(after.result && (derived.state === "successful" || derived.state === "failed")
          ? { transactionNumber: after.result.transactionNumber, error: after.result.error ?? null }
          : {}),
        ...(derived.outcomeUnknownReason ? { reason: derived.outcomeUnknownReason } : {}),
      },
    });
  }
  return events;
}

/** An `UPSTREAM_*` code for faults of the service; anything else is a bug of ours, kept apart. */
function readFaultCode(error: unknown): string {
  return isAppError(error) ? error.code : "INTERNAL";
}
