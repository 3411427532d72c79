import { z } from "zod";

/**
 * Values that arrive in URLs and form fields and go on into SQL: each checked before it gets
 * there. PostgreSQL refuses `\0` in text, a date it cannot read or an offset beyond bigint with an
 * error — a 500, and Next prints the failed SQL with its parameters to the log. So every query
 * value is validated here first and answered with a 4xx (or dropped, on forgiving pages).
 */

/** `\0` and the other C0 controls (tab, CR and LF included) and DEL: nothing a filter needs. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function hasNulCharacter(value: string): boolean {
  return value.includes("\u0000");
}

/** Free text in a query (a reference prefix, a teller's name): printable and bounded. */
export function queryTextSchema(maxLength: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(maxLength)
    .refine((value) => !CONTROL_CHARACTERS.test(value), "contains control characters");
}

/** The years a day filter can mean: Veridesk has no data before 2000, and none after 2100. */
export const earliestYear = 2000;
export const latestYear = 2100;

/** A calendar day YYYY-MM-DD that exists (no 31 February, no month 13) within the years above. */
export const isoDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD")
  .refine((value) => {
    const year = Number(value.slice(0, 4));
    if (year < earliestYear || year > latestYear) return false;
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, "is not a day Veridesk can have data for");

/**
 * An instant, ISO 8601 with its offset, whose UTC year is within the years above. The format
 * alone lets through what PostgreSQL cannot hold: year 0000 (it has no year zero) and, with a
 * negative offset, `9999-12-31T23:59:59-14:00`, which `toISOString` writes as `+010000-…`.
 */
export const isoInstantSchema = z.iso.datetime({ offset: true }).refine((value) => {
  const year = new Date(value).getUTCFullYear();
  return year >= earliestYear && year <= latestYear;
}, `must be a time between ${earliestYear} and ${latestYear}`);

/** The largest page number any list offers: far past the last page of any real list. */
export const maxPageNumber = 100_000;

export const pageNumberSchema = z.coerce.number().int().min(1).max(maxPageNumber);

export const uuidSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be an id");

/** An audit action code as the app writes them: `auth.sign_in`, `token.id_revealed`. */
export const auditActionCodeSchema = z.string().max(64).regex(/^[a-z_]+(\.[a-z_]+)*$/, "is not an action code");

/**
 * True when a JSON-like value holds `\0` anywhere in a string or a key. Server actions and routes
 * refuse such input outright, before any schema runs, so no `\0` can reach the database.
 */
export function containsNul(value: unknown, depth = 0): boolean {
  if (depth > 32) return true;
  if (typeof value === "string") return hasNulCharacter(value);
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  if (value && typeof value === "object") {
    return Object.entries(value).some(([key, item]) => hasNulCharacter(key) || containsNul(item, depth + 1));
  }
  return false;
}
