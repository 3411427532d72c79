import { bankDayOf, startOfBankDay } from "@/lib/bank-time";

/**
 * Which days of a branch may be signed off (the end-of-day sheet, ADR 0010): a day that has ended
 * on the bank's clock (a day still going, or one to come, has figures that will change), and not a
 * day before the branch's first token (there is nothing to reconcile, and a sign-off there is a
 * record of nothing). Pure, so the rule is unit-tested; `signOffBranchDay` asks it with the facts.
 */

export type SignOffFacts = {
  now: Date;
  /** When the branch issued its first token (any outcome); null when it has none. */
  firstTokenAt: Date | null;
};

export const signOffRefusals = {
  notEnded: "This day has not ended yet: sign it off once it is over.",
  noTokens: "This branch has no token yet: there is no day to sign off.",
  beforeFirstToken: "This day is before the branch's first token: there is nothing to sign off.",
} as const;

/** A printed sheet is recorded for a day that has begun (a mid-day print is fine; one to come is not). */
export const FUTURE_SHEET_MESSAGE = "A day still to come has no sheet to print.";

/** Why `day` (YYYY-MM-DD, a real calendar day) may not be signed off, or null when it may. */
export function signOffRefusal(day: string, facts: SignOffFacts): string | null {
  if (facts.now.getTime() < startOfBankDay(dayAfter(day)).getTime()) return signOffRefusals.notEnded;
  if (facts.firstTokenAt === null) return signOffRefusals.noTokens;
  if (day < bankDayOf(facts.firstTokenAt)) return signOffRefusals.beforeFirstToken;
  return null;
}

function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
