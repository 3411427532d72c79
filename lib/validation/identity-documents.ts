import type { IdNumberCheck } from "@/lib/domain/id-types";
import type { Normalised } from "./normalised";
import { cleanPastedText, foreignDigitsMessage, hasForeignDigits } from "./pasted-text";

/**
 * The document numbers other than the Ghana Card: each type's rule (its noun, the pattern, the
 * format message) is in its descriptor (lib/domain/id-types.ts); this applies one.
 */
export function checkDocumentNumber(rule: Extract<IdNumberCheck, { kind: "document" }>, raw: string): Normalised {
  const cleaned = cleanPastedText(raw);
  if (cleaned === "") return { ok: false, message: `Enter the ${rule.noun}.` };
  if (hasForeignDigits(cleaned)) return { ok: false, message: foreignDigitsMessage };
  const compact = cleaned.replace(/\s+/g, "").toUpperCase();
  if (!rule.pattern.test(compact)) return { ok: false, message: rule.formatMessage };
  return { ok: true, value: compact };
}

// ─── Date of birth ───────────────────────────────────────────────────────────────────────────────

/** The youngest holder of a Ghana driving licence (DVLA: 18) and a generous upper bound. */
export const minimumAgeYears = 18;
export const maximumAgeYears = 120;

export const dateOfBirthMessages = {
  required: "Enter the date of birth.",
  format: "Enter the date of birth as DD/MM/YYYY, e.g. 07/03/1990.",
  notADay: "This day does not exist. Check the day and the month.",
  future: "The date of birth cannot be today or in the future.",
  tooYoung: `The customer must be at least ${minimumAgeYears} to hold a driver licence. Check the year.`,
  tooOld: `This would make the customer older than ${maximumAgeYears}. Check the year.`,
  foreignDigits: foreignDigitsMessage,
} as const;

/** Today's date in Ghana (GMT all year, no daylight saving) as YYYY-MM-DD. */
export function todayInGhana(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Checks a YYYY-MM-DD date of birth: a real day, in the past, a plausible age on `today`. */
export function checkDateOfBirth(raw: string, today: string = todayInGhana()): Normalised {
  const cleaned = cleanPastedText(raw);
  if (cleaned === "") return { ok: false, message: dateOfBirthMessages.required };
  if (hasForeignDigits(cleaned)) return { ok: false, message: dateOfBirthMessages.foreignDigits };
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(cleaned);
  if (!match) return { ok: false, message: dateOfBirthMessages.format };
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const isRealDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!isRealDay) return { ok: false, message: dateOfBirthMessages.notADay };
  if (cleaned >= today) return { ok: false, message: dateOfBirthMessages.future };
  const age = ageOn(cleaned, today);
  if (age < minimumAgeYears) return { ok: false, message: dateOfBirthMessages.tooYoung };
  if (age > maximumAgeYears) return { ok: false, message: dateOfBirthMessages.tooOld };
  return { ok: true, value: cleaned };
}

/** Whole years between two YYYY-MM-DD dates (string comparison works for this format). */
export function ageOn(dateOfBirth: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  return today.slice(5) >= dateOfBirth.slice(5) ? years : years - 1;
}
