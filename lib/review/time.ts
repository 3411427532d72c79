/**
 * The bank's calendar. A "day" in review (filters, figures, reconciliation) is a day on the
 * branches' wall clocks, not UTC's. Ghana keeps GMT all year, so today the two agree — but the
 * arithmetic below does not rely on it, so a bank elsewhere changes only the zone.
 */
export const BANK_TIME_ZONE = "Africa/Accra";

/** Offset of `timeZone` from UTC at `at`, in minutes (e.g. +60 for Lagos). */
export function offsetMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

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

/** The bank day (YYYY-MM-DD) an instant falls on. */
export function bankDayOf(at: Date, timeZone: string = BANK_TIME_ZONE): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}
