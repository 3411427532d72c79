import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  closeIfFinal,
  defaultFollowPolicy,
  deriveTokenState,
  invalidRecheckAt,
  isFinalState,
  recordObservation,
  type IssuedTokenFacts,
  type Observation,
  type TokenFacts,
  type TokenStateName,
  type UpstreamTokenState,
} from "./state";
import { TOKEN_LIFETIME_MS, expiryOf } from "./lifetime";

const issuedAt = new Date("2026-11-22T09:00:00.000Z");
const expiresAt = expiryOf(issuedAt);
const minutes = (n: number) => new Date(issuedAt.getTime() + n * 60_000);
const fresh = (): IssuedTokenFacts => ({ issuance: "issued", issuedAt });

const stateSeen = (state: UpstreamTokenState, atMinute: number): Observation => ({ kind: "state", state, at: minutes(atMinute) });
const resultSeen = (status: "SUCCESSFUL" | "FAILED", atMinute: number): Observation => ({
  kind: "result",
  status,
  transactionNumber: status === "SUCCESSFUL" ? "GH-STE-123456789-123456-1234" : "GH-INP-12345678-1234567-123456",
  error: status === "FAILED" ? "Verification Unsuccesful" : undefined,
  at: minutes(atMinute),
});
const fault = (atMinute: number, code = "UPSTREAM_NETWORK"): Observation => ({ kind: "fault", code, at: minutes(atMinute) });

/** Records each observation the way the watcher does: fold it in, then close if final. */
function replay(observations: Observation[], facts: TokenFacts = fresh()): TokenFacts {
  return observations.reduce((current, observation) => closeIfFinal(recordObservation(current, observation), observation.at), facts);
}

function stateAt(facts: TokenFacts, atMinute: number): TokenStateName {
  return deriveTokenState(facts, minutes(atMinute)).state;
}

describe("deriveTokenState: the states one by one", () => {
  it("a token with no answer yet is waiting for the customer, not final", () => {
    const derived = deriveTokenState(fresh(), minutes(0));
    expect(derived).toEqual({ state: "waiting", isFinal: false, expiresAt });
  });

  it("Pending Token within 15 minutes is waiting", () => {
    expect(stateAt(replay([stateSeen("pending", 1)]), 14.9)).toBe("waiting");
  });

  it("the 15 minutes run from the moment the service answered, on Veridesk's clock", () => {
    expect(expiresAt.getTime() - issuedAt.getTime()).toBe(TOKEN_LIFETIME_MS);
    const facts = replay([stateSeen("pending", 14)]);
    expect(stateAt(facts, 14.99)).toBe("waiting");
    expect(stateAt(facts, 15)).toBe("expired");
  });

  it("Token has already been used, no result yet, is verification in progress", () => {
    expect(stateAt(replay([stateSeen("used", 2)]), 3)).toBe("in_progress");
  });

  it("a SUCCESSFUL result is successful and final, with its transaction number kept", () => {
    const facts = replay([stateSeen("used", 2), resultSeen("SUCCESSFUL", 3)]) as IssuedTokenFacts;
    expect(deriveTokenState(facts, minutes(3))).toMatchObject({ state: "successful", isFinal: true });
    expect(facts.result?.transactionNumber).toBe("GH-STE-123456789-123456-1234");
    expect(facts.closed).toEqual({ state: "successful", at: minutes(3) });
  });

  it("a FAILED result is failed and final, with the service's error text", () => {
    const facts = replay([resultSeen("FAILED", 4)]) as IssuedTokenFacts;
    expect(deriveTokenState(facts, minutes(4))).toMatchObject({ state: "failed", isFinal: true });
    expect(facts.result?.error).toBe("Verification Unsuccesful");
  });

  it("Invalid Token within the 15 minutes, said twice at least 5 s apart, is invalid and final", () => {
    const facts = replay([stateSeen("invalid", 1), stateSeen("invalid", 1 + 5 / 60)]);
    expect(deriveTokenState(facts, minutes(1.1))).toMatchObject({ state: "invalid", isFinal: true });
  });

  it("Invalid Token once within the 15 minutes is not enough: still waiting, asked again 5 s after it", () => {
    const once = replay([stateSeen("invalid", 1)]) as IssuedTokenFacts;
    expect(deriveTokenState(once, minutes(1))).toMatchObject({ state: "waiting", isFinal: false });
    expect(invalidRecheckAt(once)).toEqual(new Date(minutes(1).getTime() + 5_000));
    // Twice within the 5 s (one failover's burst) is still once.
    const burst = replay([stateSeen("invalid", 1), stateSeen("invalid", 1 + 2 / 60)]) as IssuedTokenFacts;
    expect(deriveTokenState(burst, minutes(1.05))).toMatchObject({ state: "waiting", isFinal: false });
  });

  it("Pending Token after a single Invalid Token takes it back: a later Invalid Token starts over", () => {
    const facts = replay([stateSeen("invalid", 1), stateSeen("pending", 1.1), stateSeen("invalid", 3)]) as IssuedTokenFacts;
    expect(facts.invalidSeenAt).toEqual(minutes(3));
    expect(stateAt(facts, 3)).toBe("waiting");
    expect(stateAt(replay([stateSeen("invalid", 3.1)], facts), 3.1)).toBe("invalid");
  });

  it("a single Invalid Token within the 15 minutes, said again after them, confirms the expiry", () => {
    const facts = replay([stateSeen("invalid", 14.99), stateSeen("invalid", 15.01)]);
    expect(deriveTokenState(facts, minutes(15.01))).toMatchObject({ state: "expired", isFinal: true });
  });

  it("Invalid Token after the 15 minutes means expired, and confirms it", () => {
    const facts = replay([stateSeen("pending", 14), stateSeen("invalid", 15.02)]);
    expect(deriveTokenState(facts, minutes(15.02))).toMatchObject({ state: "expired", isFinal: true });
  });

  it("an issuance that was never answered is outcome unknown, final, without an expiry", () => {
    const facts: TokenFacts = { issuance: "unanswered", attemptedAt: issuedAt };
    expect(deriveTokenState(facts, minutes(0))).toEqual({
      state: "outcome_unknown",
      isFinal: true,
      expiresAt: null,
      outcomeUnknownReason: "issuance_unanswered",
    });
    expect(recordObservation(facts, stateSeen("used", 1))).toBe(facts);
  });

  it("every state name has a word, and only the end states are final", () => {
    expect(isFinalState("waiting")).toBe(false);
    expect(isFinalState("in_progress")).toBe(false);
    for (const state of ["successful", "failed", "expired", "invalid", "outcome_unknown"] as const) {
      expect(isFinalState(state)).toBe(true);
    }
  });
});

describe("deriveTokenState: expiry", () => {
  it("expired by the clock alone shows Expired at once but stays open until the service confirms", () => {
    const facts = replay([stateSeen("pending", 10)]);
    expect(deriveTokenState(facts, minutes(15.5))).toMatchObject({ state: "expired", isFinal: false });
  });

  it("a Pending Token answer just after the expiry does not confirm it (the service's clock may lag)", () => {
    const facts = replay([stateSeen("pending", 15.2)]);
    expect(deriveTokenState(facts, minutes(15.2))).toMatchObject({ state: "expired", isFinal: false });
  });

  it("a Pending Token answer after the grace confirms the expiry", () => {
    const afterGrace = 15 + defaultFollowPolicy.expiryGraceMs / 60_000 + 0.1;
    const facts = replay([stateSeen("pending", afterGrace)]);
    expect(deriveTokenState(facts, minutes(afterGrace))).toMatchObject({ state: "expired", isFinal: true });
  });

  it("a late Token has already been used wins over the expiry", () => {
    const facts = replay([stateSeen("pending", 14), stateSeen("used", 15.1)]);
    expect(stateAt(facts, 15.1)).toBe("in_progress");
    expect(stateAt(replay([resultSeen("SUCCESSFUL", 20)], facts), 20)).toBe("successful");
  });

  it("a used token is followed after the 15 minutes, and is outcome unknown past the limit", () => {
    const facts = replay([stateSeen("used", 14)]);
    const limitMinutes = 15 + defaultFollowPolicy.followUsedForMs / 60_000;
    expect(stateAt(facts, 60)).toBe("in_progress");
    expect(deriveTokenState(facts, minutes(limitMinutes))).toMatchObject({
      state: "outcome_unknown",
      isFinal: true,
      outcomeUnknownReason: "result_never_arrived",
    });
  });

  it("the follow limit is a setting", () => {
    const facts = replay([stateSeen("used", 14)]);
    const policy = { ...defaultFollowPolicy, followUsedForMs: 5 * 60_000 };
    expect(deriveTokenState(facts, minutes(19), policy).state).toBe("in_progress");
    expect(deriveTokenState(facts, minutes(20), policy).state).toBe("outcome_unknown");
  });

  it("an expired token the service never confirms is closed as expired after the same limit", () => {
    const facts = replay([stateSeen("pending", 14), fault(15.5), fault(60)]);
    expect(deriveTokenState(facts, minutes(120))).toMatchObject({ state: "expired", isFinal: false });
    expect(deriveTokenState(facts, minutes(15 + 120))).toMatchObject({ state: "expired", isFinal: true });
  });
});

describe("deriveTokenState: an unreachable service is not a failure", () => {
  it("faults keep the last known state and add the problem, since the first fault of the run", () => {
    const facts = replay([stateSeen("pending", 1), fault(2, "UPSTREAM_TIMEOUT"), fault(3, "UPSTREAM_SERVER_ERROR")]);
    expect(deriveTokenState(facts, minutes(3))).toEqual({
      state: "waiting",
      isFinal: false,
      expiresAt,
      serviceProblem: { code: "UPSTREAM_SERVER_ERROR", since: minutes(2) },
    });
  });

  it("faults during a verification keep it in progress", () => {
    const facts = replay([stateSeen("used", 1), fault(2)]);
    expect(deriveTokenState(facts, minutes(2))).toMatchObject({ state: "in_progress", serviceProblem: { code: "UPSTREAM_NETWORK" } });
  });

  it("the next answer clears the problem, and a new run of faults starts a new 'since'", () => {
    const recovered = replay([fault(1), stateSeen("pending", 2)]);
    expect(deriveTokenState(recovered, minutes(2)).serviceProblem).toBeUndefined();
    const again = replay([fault(3)], recovered);
    expect(deriveTokenState(again, minutes(3)).serviceProblem).toEqual({ code: "UPSTREAM_NETWORK", since: minutes(3) });
  });

  it("faults alone never make a token failed, invalid or final before the expiry", () => {
    const facts = replay([fault(0.1), fault(5), fault(14)]);
    expect(deriveTokenState(facts, minutes(14))).toMatchObject({ state: "waiting", isFinal: false });
  });
});

describe("recordObservation: out-of-order and unexpected answers", () => {
  it("a Pending Token answer after used does not take the token back to waiting", () => {
    expect(stateAt(replay([stateSeen("used", 2), stateSeen("pending", 3)]), 3)).toBe("in_progress");
  });

  it("a slow Pending Token answer arriving after a faster used one is ignored for lastState", () => {
    const facts = replay([stateSeen("used", 3), stateSeen("pending", 2)]) as IssuedTokenFacts;
    expect(facts.lastState).toEqual({ state: "used", at: minutes(3) });
    expect(stateAt(facts, 3)).toBe("in_progress");
  });

  it("a result without a used answer before it still counts, and marks the token used", () => {
    const facts = replay([resultSeen("SUCCESSFUL", 1)]) as IssuedTokenFacts;
    expect(facts.usedSeenAt).toEqual(minutes(1));
    expect(stateAt(facts, 1)).toBe("successful");
  });

  it("after a result, a different result, Invalid Token or Pending Token change nothing", () => {
    const facts = replay([resultSeen("SUCCESSFUL", 2)]);
    const after = replay([resultSeen("FAILED", 3), stateSeen("invalid", 4), stateSeen("pending", 5), fault(6)], facts);
    expect(after).toBe(facts);
    expect(stateAt(after, 30)).toBe("successful");
  });

  it("after Invalid (said twice), a later used or result changes nothing (the token was closed)", () => {
    const facts = replay([stateSeen("invalid", 1), stateSeen("invalid", 1.1), stateSeen("used", 2), resultSeen("SUCCESSFUL", 3)]);
    expect(stateAt(facts, 3)).toBe("invalid");
  });

  it("after a single Invalid, used wins: the service took its word back", () => {
    const facts = replay([stateSeen("invalid", 1), stateSeen("used", 2), resultSeen("SUCCESSFUL", 3)]);
    expect(stateAt(facts, 3)).toBe("successful");
  });

  it("token_status saying Invalid Token for a token never seen used within 15 minutes, then check_token_status again, makes it invalid", () => {
    const once = replay([{ kind: "result_invalid", at: minutes(2) }]);
    expect(stateAt(once, 2)).toBe("waiting");
    expect(stateAt(replay([stateSeen("invalid", 2.1)], once), 2.1)).toBe("invalid");
  });

  it("token_status saying Invalid Token for a used token keeps following it (used wins)", () => {
    const facts = replay([stateSeen("used", 2), { kind: "result_invalid", at: minutes(16) }]);
    expect(stateAt(facts, 16)).toBe("in_progress");
  });

  it("no result yet is an answer: it clears a service problem but changes no state", () => {
    const facts = replay([stateSeen("used", 2), fault(3), { kind: "no_result", at: minutes(4) }]);
    expect(deriveTokenState(facts, minutes(4))).toEqual({ state: "in_progress", isFinal: false, expiresAt });
  });

  it("a closed token records nothing more and keeps its state whatever the time", () => {
    const closed = replay([stateSeen("pending", 14), stateSeen("invalid", 15.1)]);
    expect(recordObservation(closed, stateSeen("used", 16))).toBe(closed);
    expect(closeIfFinal(closed, minutes(500))).toBe(closed);
    expect(stateAt(closed, 5000)).toBe("expired");
  });
});

describe("properties over any sequence of answers", () => {
  const observationAt = (atMinute: number) =>
    fc.oneof(
      fc.constantFrom<UpstreamTokenState>("pending", "used", "invalid").map((state) => stateSeen(state, atMinute)),
      fc.constantFrom<"SUCCESSFUL" | "FAILED">("SUCCESSFUL", "FAILED").map((status) => resultSeen(status, atMinute)),
      fc.constant<Observation>({ kind: "no_result", at: minutes(atMinute) }),
      fc.constant<Observation>({ kind: "result_invalid", at: minutes(atMinute) }),
      fc.constantFrom("UPSTREAM_TIMEOUT", "UPSTREAM_NETWORK", "UPSTREAM_SERVER_ERROR").map((code) => fault(atMinute, code)),
    );
  // Answers in time order, as the watcher receives them, up to 3 hours after issue.
  const timeline = fc
    .array(fc.double({ min: 0, max: 180, noNaN: true }), { maxLength: 25 })
    .map((times) => [...times].sort((a, b) => a - b))
    .chain((times) => fc.tuple(...times.map(observationAt)).map((observations) => observations as Observation[]));

  it("a final state, once reached, never changes", () => {
    fc.assert(
      fc.property(timeline, (observations) => {
        let facts: TokenFacts = fresh();
        let finalState: TokenStateName | undefined;
        for (const observation of observations) {
          facts = closeIfFinal(recordObservation(facts, observation), observation.at);
          const derived = deriveTokenState(facts, observation.at);
          if (finalState) expect(derived.state).toBe(finalState);
          if (derived.isFinal) finalState ??= derived.state;
        }
      }),
    );
  });

  it("faults never produce failed, invalid or successful", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 180, noNaN: true }), { maxLength: 20 }), (times) => {
        const facts = replay([...times].sort((a, b) => a - b).map((at) => fault(at)));
        for (const at of [...times, 0, 14, 16, 200]) {
          expect(["waiting", "expired"]).toContain(stateAt(facts, at));
        }
      }),
    );
  });

  it("the first result decides, whatever came before it", () => {
    fc.assert(
      fc.property(timeline, (observations) => {
        const facts = replay(observations) as IssuedTokenFacts;
        const firstResultIndex = observations.findIndex((observation) => observation.kind === "result");
        if (firstResultIndex === -1 || facts.closed?.state !== undefined && !["successful", "failed"].includes(facts.closed.state)) return;
        const first = observations[firstResultIndex] as Extract<Observation, { kind: "result" }>;
        expect(stateAt(facts, 500)).toBe(first.status === "SUCCESSFUL" ? "successful" : "failed");
      }),
    );
  });

  it("the derived state is always one of the seven, and final states have an expiry or a reason", () => {
    fc.assert(
      fc.property(timeline, fc.double({ min: -1, max: 400, noNaN: true }), (observations, atMinute) => {
        const derived = deriveTokenState(replay(observations), minutes(atMinute));
        expect(derived.expiresAt).toEqual(expiresAt);
        if (derived.state === "outcome_unknown") expect(derived.outcomeUnknownReason).toBe("result_never_arrived");
        if (derived.isFinal) expect(derived.serviceProblem).toBeUndefined();
      }),
    );
  });
});
