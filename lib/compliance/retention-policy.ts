/**
 * The retention arithmetic (ADR 0022): pure functions of a token's stored times, the
 * settings and the present moment. The job, the customer's record and the erasure on request all
 * ask these, so "when will this be erased" has one answer everywhere.
 */

/** The AML Act 2020 (Act 1044): customer due diligence records are kept at least five years. */
export const AML_MINIMUM_YEARS = 5;

/**
 * An issued token whose watcher never closed it (the watcher was off, the process died for good)
 * counts as ended this long after its expiry: no token outlives its 15 minutes by more.
 */
export const ABANDONED_TOKEN_GRACE_MS = 24 * 60 * 60 * 1000;

export type RetentionSettings = { contactDays: number; identityYears: number };

export type RetentionFacts = {
  outcome: "pending" | "issued" | "outcome_unknown" | "rejected" | "failed_upstream";
  createdAt: Date;
  settledAt: Date | null;
  expiresAt: Date | null;
  finishedAt: Date | null;
  legalHoldAt: Date | null;
  contactErasedAt: Date | null;
  identityErasedAt: Date | null;
};

/**
 * When the token ended, the moment both clocks count from: its final state for an issued token
 * (or a day after its expiry if it was never closed), the settled call for one that never
 * produced a token, the attempt itself for a call that never settled.
 */
export function tokenEndedAt(facts: RetentionFacts): Date {
  if (facts.finishedAt) return facts.finishedAt;
  switch (facts.outcome) {
    case "issued": {
      const expiry = facts.expiresAt ?? facts.settledAt ?? facts.createdAt;
      return new Date(expiry.getTime() + ABANDONED_TOKEN_GRACE_MS);
    }
    case "pending":
      return facts.createdAt;
    default:
      return facts.settledAt ?? facts.createdAt;
  }
}

export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * 24 * 60 * 60 * 1000);
}

/** Calendar years in UTC; 29 February lands on 28 February (never on 1 March, which would be a day late). */
export function addYears(at: Date, years: number): Date {
  const result = new Date(at.getTime());
  const targetYear = result.getUTCFullYear() + years;
  const month = result.getUTCMonth();
  result.setUTCFullYear(targetYear);
  if (result.getUTCMonth() !== month) result.setUTCDate(0);
  return result;
}

export function contactEraseDue(facts: RetentionFacts, settings: RetentionSettings): Date {
  return addDays(tokenEndedAt(facts), settings.contactDays);
}

export function identityEraseDue(facts: RetentionFacts, settings: RetentionSettings): Date {
  return addYears(tokenEndedAt(facts), settings.identityYears);
}

/** The end of the AML minimum for this token: no erasure of identity data before it, even on request. */
export function amlMinimumEnds(facts: RetentionFacts): Date {
  return addYears(tokenEndedAt(facts), AML_MINIMUM_YEARS);
}

export type RetentionDecision = { eraseContact: boolean; eraseIdentity: boolean; isHeld: boolean };

/**
 * What the retention job does to this token now. A legal hold wins over both clocks; identity
 * erasure takes the contact data with it (nothing personal is left once the identity goes).
 */
export function retentionDecision(facts: RetentionFacts, settings: RetentionSettings, now: Date): RetentionDecision {
  if (facts.legalHoldAt !== null) return { eraseContact: false, eraseIdentity: false, isHeld: true };
  const eraseIdentity = facts.identityErasedAt === null && now.getTime() >= identityEraseDue(facts, settings).getTime();
  const eraseContact = facts.contactErasedAt === null && (eraseIdentity || now.getTime() >= contactEraseDue(facts, settings).getTime());
  return { eraseContact, eraseIdentity, isHeld: false };
}

/**
 * The earliest a token of this age could be due under either clock: the job's SQL prefilter on
 * created_at (a token never ends before it was created), so it reads only rows that may be due.
 */
export function oldestCreatedAtThatMayBeDue(settings: RetentionSettings, now: Date): { contact: Date; identity: Date } {
  return {
    contact: addDays(now, -settings.contactDays),
    identity: addYears(now, -settings.identityYears),
  };
}

export type ErasureOnRequestVerdict =
  | { kind: "held"; reason: string }
  | { kind: "erase"; contact: boolean; identity: boolean; identityKeptUntil: Date | null };

/**
 * What erasure at the customer's request may do to this token now: nothing under a legal hold;
 * the contact data at once; the identity data only once the AML minimum has passed (until then
 * it is kept, and the customer is told until when and why).
 */
export function erasureOnRequest(facts: RetentionFacts & { legalHoldReason?: string | null }, now: Date): ErasureOnRequestVerdict {
  if (facts.legalHoldAt !== null) return { kind: "held", reason: facts.legalHoldReason ?? "legal hold" };
  const amlEnds = amlMinimumEnds(facts);
  const identityAllowed = now.getTime() >= amlEnds.getTime();
  return {
    kind: "erase",
    contact: facts.contactErasedAt === null,
    identity: identityAllowed && facts.identityErasedAt === null,
    identityKeptUntil: identityAllowed || facts.identityErasedAt !== null ? null : amlEnds,
  };
}
