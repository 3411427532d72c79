import { BANK_TIME_ZONE, offsetMinutes } from "@/lib/bank-time";

/**
 * The bank's calendar. A "day" in review (filters, figures, reconciliation) is a day on the
 * branches' wall clocks, not UTC's. Ghana keeps GMT all year, so today the two agree — but the
 * arithmetic below does not rely on it, so a bank elsewhere changes only the zone.
 */
/** The instant a bank day (YYYY-MM-DD) begins. */
export function startOfBankDay(day: string, timeZone: string = BANK_TIME_ZONE): Date {
  const midnightUtc = new Date(`${day}T00:00:00Z`);
  const offset = offsetMinutes(midnightUtc, timeZone);
  return new Date(midnightUtc.getTime() - offset * 60_000);
}

/** [start of `from`, start of the day after `to`): the half-open range of an inclusive day range. */
export function bankDayRange(from: string, to: string, timeZone: string = BANK_TIME_ZONE): { start: Date; end: Date } {
  const next = new Date(`${to}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return { start: startOfBankDay(from, timeZone), end: startOfBankDay(next.toISOString().slice(0, 10), timeZone) };
}

/** The bank day (YYYY-MM-DD) an instant falls on: a key for queries and URLs, never shown as such (lib/bank-time.ts writes it for people). */
export function bankDayOf(at: Date, timeZone: string = BANK_TIME_ZONE): string {
  return new Date(at.getTime() + offsetMinutes(at, timeZone) * 60_000).toISOString().slice(0, 10);
}
