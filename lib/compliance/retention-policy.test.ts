import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ABANDONED_TOKEN_GRACE_MS,
  addYears,
  amlMinimumEnds,
  contactEraseDue,
  erasureOnRequest,
  identityEraseDue,
  retentionDecision,
  tokenEndedAt,
  type RetentionFacts,
} from "./retention-policy";

const day = 24 * 60 * 60 * 1000;
const settings = { contactDays: 90, identityYears: 5 };

const outcomes = ["pending", "issued", "outcome_unknown", "rejected", "failed_upstream"] as const;
const instant = fc.date({ min: new Date("2015-01-01T00:00:00Z"), max: new Date("2035-01-01T00:00:00Z"), noInvalidDate: true });

/** Any token's stored times, in a consistent order (created ≤ settled ≤ expires ≤ finished). */
const factsArbitrary = fc
  .record({
    outcome: fc.constantFrom(...outcomes),
    createdAt: instant,
    settleAfter: fc.integer({ min: 0, max: 60_000 }),
    finishAfter: fc.option(fc.integer({ min: 0, max: 3 * 60 * 60 * 1000 })),
    held: fc.boolean(),
  })
  .map(({ outcome, createdAt, settleAfter, finishAfter, held }): RetentionFacts => {
    const settledAt = outcome === "pending" ? null : new Date(createdAt.getTime() + settleAfter);
    const expiresAt = outcome === "issued" && settledAt ? new Date(settledAt.getTime() + 15 * 60_000) : null;
    const finishedAt = outcome === "issued" && settledAt && finishAfter !== null ? new Date(settledAt.getTime() + finishAfter) : null;
    return { outcome, createdAt, settledAt, expiresAt, finishedAt, legalHoldAt: held ? createdAt : null, contactErasedAt: null, identityErasedAt: null };
  });

describe("the two clocks", () => {
  it("count from the end of the token: its final state, the settled call, or a day after an unclosed token's expiry", () => {
    const createdAt = new Date("2026-01-10T09:00:00Z");
    const base: RetentionFacts = { outcome: "issued", createdAt, settledAt: createdAt, expiresAt: new Date(createdAt.getTime() + 15 * 60_000), finishedAt: null, legalHoldAt: null, contactErasedAt: null, identityErasedAt: null };
    expect(tokenEndedAt({ ...base, finishedAt: new Date("2026-01-10T09:05:00Z") })).toEqual(new Date("2026-01-10T09:05:00Z"));
    expect(tokenEndedAt(base).getTime()).toBe(base.expiresAt!.getTime() + ABANDONED_TOKEN_GRACE_MS);
    expect(tokenEndedAt({ ...base, outcome: "rejected", expiresAt: null, settledAt: new Date("2026-01-10T09:00:02Z") })).toEqual(new Date("2026-01-10T09:00:02Z"));
    expect(tokenEndedAt({ ...base, outcome: "pending", settledAt: null, expiresAt: null })).toEqual(createdAt);
    const finished = { ...base, finishedAt: new Date("2026-01-10T09:05:00Z") };
    expect(contactEraseDue(finished, settings)).toEqual(new Date("2026-04-10T09:05:00Z"));
    expect(identityEraseDue(finished, settings)).toEqual(new Date("2031-01-10T09:05:00Z"));
  });

  it("adds calendar years, 29 February landing on 28 February", () => {
    expect(addYears(new Date("2024-02-29T10:00:00Z"), 5)).toEqual(new Date("2029-02-28T10:00:00Z"));
    expect(addYears(new Date("2024-02-29T10:00:00Z"), 4)).toEqual(new Date("2028-02-29T10:00:00Z"));
  });

  it("erases contact data exactly from its due moment, identity data exactly from its own, never before (property)", () => {
    fc.assert(
      fc.property(factsArbitrary, fc.integer({ min: -10 * 365, max: 10 * 365 }), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 10 }), (raw, offsetDays, contactDays, identityYears) => {
        const facts = { ...raw, legalHoldAt: null };
        const clocks = { contactDays, identityYears };
        const now = new Date(tokenEndedAt(facts).getTime() + offsetDays * day);
        const decision = retentionDecision(facts, clocks, now);
        const identityDue = now.getTime() >= identityEraseDue(facts, clocks).getTime();
        const contactDue = now.getTime() >= contactEraseDue(facts, clocks).getTime();
        expect(decision.eraseIdentity).toBe(identityDue);
        // Identity erasure takes the contact data with it.
        expect(decision.eraseContact).toBe(contactDue || identityDue);
        expect(decision.isHeld).toBe(false);
      }),
    );
  });

  it("erases nothing twice", () => {
    fc.assert(
      fc.property(factsArbitrary, fc.integer({ min: 0, max: 20 * 365 }), (raw, offsetDays) => {
        const now = new Date(raw.createdAt.getTime() + offsetDays * day);
        const erased = { ...raw, legalHoldAt: null, contactErasedAt: now, identityErasedAt: now };
        expect(retentionDecision(erased, settings, new Date(now.getTime() + 100 * 365 * day))).toEqual({ eraseContact: false, eraseIdentity: false, isHeld: false });
      }),
    );
  });
});

describe("legal hold precedence", () => {
  it("a held token is never erased by the job, whatever its age and settings (property)", () => {
    fc.assert(
      fc.property(factsArbitrary, fc.integer({ min: 0, max: 50 * 365 }), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 10 }), (raw, offsetDays, contactDays, identityYears) => {
        const facts = { ...raw, legalHoldAt: raw.createdAt };
        const decision = retentionDecision(facts, { contactDays, identityYears }, new Date(raw.createdAt.getTime() + offsetDays * day));
        expect(decision).toEqual({ eraseContact: false, eraseIdentity: false, isHeld: true });
      }),
    );
  });

  it("refuses erasure on request while held, saying why", () => {
    const facts: RetentionFacts & { legalHoldReason: string } = {
      outcome: "rejected",
      createdAt: new Date("2015-01-01T00:00:00Z"),
      settledAt: new Date("2015-01-01T00:00:01Z"),
      expiresAt: null,
      finishedAt: null,
      legalHoldAt: new Date("2020-01-01T00:00:00Z"),
      legalHoldReason: "EOCO inquiry 44",
      contactErasedAt: null,
      identityErasedAt: null,
    };
    expect(erasureOnRequest(facts, new Date("2026-01-01T00:00:00Z"))).toEqual({ kind: "held", reason: "EOCO inquiry 44" });
  });
});

describe("erasure on request and the AML minimum", () => {
  it("erases contact data at once and identity data only once five years have passed since the token ended (property)", () => {
    fc.assert(
      fc.property(factsArbitrary, fc.integer({ min: 0, max: 12 * 365 }), (raw, offsetDays) => {
        const facts = { ...raw, legalHoldAt: null };
        const now = new Date(tokenEndedAt(facts).getTime() + offsetDays * day);
        const verdict = erasureOnRequest(facts, now);
        if (verdict.kind !== "erase") throw new Error("expected erase");
        expect(verdict.contact).toBe(true);
        const amlPassed = now.getTime() >= amlMinimumEnds(facts).getTime();
        expect(verdict.identity).toBe(amlPassed);
        expect(verdict.identityKeptUntil).toEqual(amlPassed ? null : amlMinimumEnds(facts));
      }),
    );
  });
});
