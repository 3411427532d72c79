/**
 * Every date and time a person reads in Veridesk, written one way and always on the bank's wall
 * clock, whatever the server's or the browser's zone:
 *
 *   text       "24 Nov 2026", "24 Nov 2026, 14:05", "14:05" (with seconds only where order within a
 *              minute matters: the audit trail, a token's history, the live countdown's times)
 *   a day      "24 Nov 2026", or "Tue 24 Nov 2026" where the weekday helps (a day's figures)
 *   fields     DD/MM/YYYY, typed into one masked box (components/review/day-field.tsx, ADR 0029)
 *
 * The one exception is what machines read: CSV exports keep ISO-like "2026-11-24 14:05:09"
 * (`formatIsoDateTime`), which sorts as text and which spreadsheets take as a date-time.
 *
 * No other module formats a date for people (lib/bank-time.test.ts fails on an
 * `Intl.DateTimeFormat`, `toLocale…String` of a date or a hard-coded zone elsewhere). Plain
 * functions with no server import: server and client components print the same text.
 */

/**
 * The branches' time zone. Ghana keeps GMT all year, so today it agrees with UTC — but nothing
 * relies on that (the bank days below do the calendar arithmetic for any zone).
 */
export const BANK_TIME_ZONE = "Africa/Accra";

/** How a time is labelled where it must say which clock it is ("generated 14:05 (Accra time)"). */
export const BANK_TIME_LABEL = "Accra time";

type Instant = string | number | Date;

// Written by hand from numbers, not by Intl's words: engines disagree ("Sep" or "Sept" for
// September in en-GB), and a client component must print what the server printed.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

const millisecondsOf = (value: Instant): number =>
  typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : value.getTime();

/** The bank's wall clock at an instant, read with the UTC getters of the returned date. */
function wallClock(value: Instant): Date {
  const ms = millisecondsOf(value);
  return new Date(ms + bankOffsetMinutes(ms) * 60_000);
}

const dayText = (wall: Date) => `${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()}`;

/** "24 Nov 2026": the bank day an instant falls on. */
export function formatDate(value: Instant): string {
  return dayText(wallClock(value));
}

/** "14:05" (or "14:05:09" with seconds) on the bank's clock. */
export function formatTime(value: Instant, options: { seconds?: boolean } = {}): string {
  const wall = wallClock(value);
  const time = `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
  return options.seconds ? `${time}:${pad(wall.getUTCSeconds())}` : time;
}

/** "24 Nov 2026, 14:05" (or "24 Nov 2026, 14:05:09" with seconds). */
export function formatDateTime(value: Instant, options: { seconds?: boolean } = {}): string {
  return `${formatDate(value)}, ${formatTime(value, options)}`;
}

/**
 * A calendar day held as YYYY-MM-DD (a filter, a reconciliation day): "24 Nov 2026", or
 * "Tue 24 Nov 2026" with the weekday. A day has no time, so no zone applies: it is written as is.
 * Anything that is not such a day is returned unchanged (an old audit row, a hand-edited value).
 */
export function formatDay(day: string, options: { weekday?: boolean } = {}): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (date.getUTCDate() !== Number(match[3])) return day;
  return options.weekday ? `${WEEKDAYS[date.getUTCDay()]} ${dayText(date)}` : dayText(date);
}

/** "24 Nov 2026 to 30 Nov 2026", or one day when both ends are the same. */
export function formatDayRange(from: string, to: string): string {
  return from === to ? formatDay(from) : `${formatDay(from)} to ${formatDay(to)}`;
}

// ─── Bank days: the one day boundary, for review and risk alike ───────────────────────────────

/*
 * A "day" anywhere in Veridesk (review's filters, figures and reconciliation; risk's backtest
 * ranges and per-day counts) is a day on the branches' wall clocks, not UTC's.
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

/** The bank day (YYYY-MM-DD) an instant falls on: a key for queries and URLs, never shown as such (formatDay writes it for people). */
export function bankDayOf(at: Date, timeZone: string = BANK_TIME_ZONE): string {
  return new Date(at.getTime() + offsetMinutes(at, timeZone) * 60_000).toISOString().slice(0, 10);
}

// ─── Offsets, and the one format for machines (CSV exports) ─────────────────────────────────────

/** Offset of `timeZone` from UTC at `at`, in minutes (e.g. +60 for Lagos): calendar arithmetic, not text. */
export function offsetMinutes(at: Date, timeZone: string = BANK_TIME_ZONE): number {
  const parts = (timeZone === BANK_TIME_ZONE ? offsetParts : partsFormat(timeZone)).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

const offsetParts = partsFormat(BANK_TIME_ZONE);

// Exports format three times per row for 200 000 rows: the zone's offset is looked up once per
// hour (offsets change on whole quarter-hours at most) and the rest is plain arithmetic.
const offsetByHour = new Map<number, number>();

function bankOffsetMinutes(ms: number): number {
  const hour = Math.floor(ms / 3_600_000);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    if (offsetByHour.size > 50_000) offsetByHour.clear();
    offset = offsetMinutes(new Date(hour * 3_600_000));
    offsetByHour.set(hour, offset);
  }
  return offset;
}

const pad = (value: number) => String(value).padStart(2, "0");

// One Date, reused for every call (the function is synchronous, so no two calls share it at
// once): an export formats three times per row, and under `next start` every `new Date(...)` goes
// through Next's instrumented Date constructor, whose objects were the garbage that grew the
// server by 150 MB over 200 000 rows (ADR 0013).
const scratchDate = new Date(0);

/**
 * "2026-11-20 09:30:05" on the bank's clock, for CSV exports only: machines read them, so they
 * keep the ISO order (sortable as text, read as a date-time by spreadsheets). Numbers are epoch
 * milliseconds; null is an empty cell.
 */
export function formatIsoDateTime(value: Instant | null): string {
  if (value === null) return "";
  const ms = millisecondsOf(value);
  const local = scratchDate;
  local.setTime(ms + bankOffsetMinutes(ms) * 60_000);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
}
