import { BANK_TIME_ZONE, offsetMinutes } from "./time";

/**
 * How review screens and exports write times and durations: the bank's wall clock, 24-hour,
 * unambiguous. Plain functions, safe in client components.
 */

// Exports format three times per row for 200 000 rows: the zone's offset is looked up once per
// hour (offsets change on whole quarter-hours at most) and the rest is plain arithmetic.
const offsetByHour = new Map<number, number>();

function bankOffsetMinutes(ms: number): number {
  const hour = Math.floor(ms / 3_600_000);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    if (offsetByHour.size > 50_000) offsetByHour.clear();
    offset = offsetMinutes(new Date(hour * 3_600_000), BANK_TIME_ZONE);
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

/** 2026-11-20 09:30:05 — sortable, and Excel reads it as a date-time. Numbers are epoch milliseconds. */
export function formatBankDateTime(value: string | Date | number | null): string {
  if (value === null) return "";
  const ms = typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : value.getTime();
  const local = scratchDate;
  local.setTime(ms + bankOffsetMinutes(ms) * 60_000);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
}

/** 20 Nov 2026, 09:30 — for screens. */
export function formatShortDateTime(value: string | Date): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: BANK_TIME_ZONE,
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(typeof value === "string" ? new Date(value) : value);
}

/** 20 Nov, 09:30 — the list's compact form (the year only when it is not this year). */
export function formatListDateTime(value: string): string {
  const date = new Date(value);
  const sameYear = date.getUTCFullYear() === new Date().getUTCFullYear();
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: BANK_TIME_ZONE,
    day: "numeric",
    month: "short",
    ...(sameYear ? {} : { year: "numeric" }),
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(date);
}

/** Friday 20 November 2026 */
export function formatLongDay(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** 20 Nov */
export function formatShortDay(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short" }).format(new Date(`${day}T00:00:00Z`));
}

/** 95 → "1 min 35 s"; 3 725 → "1 h 2 min". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** 0.8734 → "87.3 %"; null → "—". */
export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${(rate * 100).toFixed(1)} %`;
}

export function formatCount(value: number): string {
  return value.toLocaleString("en-GB");
}
