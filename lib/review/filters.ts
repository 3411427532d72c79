import { z } from "zod";
import { formatDay } from "@/lib/bank-time";
import { ID_TYPES, idTypeLabels } from "@/lib/domain/id-types";
import { TOKEN_STATES as tokenStates, tokenStateLabels } from "@/lib/domain/token-states";
import { TOKEN_KINDS } from "@/lib/domain/token-kinds";
import { isoDaySchema, maxPageNumber, queryTextSchema, uuidSchema } from "@/lib/validation/query-values";

/**
 * The review list's filters, sorting and page, as they travel in the URL (so a view can be
 * shared) — except the ID number, which never does (see id-search). Plain data and zod only: the
 * page (server) parses them, the filter form (client) writes them.
 *
 * Parsing is forgiving: a value that does not fit (an old link, a hand-edited URL) is dropped,
 * never an error page; `describeIgnored` tells the page what was dropped so it can say so.
 */

/** The states a supervisor filters by: the token states, plus attempts the service never issued. */
export const reviewStates = [...tokenStates, "not_issued"] as const;
export type ReviewState = (typeof reviewStates)[number];

export const reviewStateLabels: Record<ReviewState, string> = { ...tokenStateLabels, not_issued: "Not issued" };

export const reviewKinds = TOKEN_KINDS;
export const reviewKindLabels: Record<(typeof reviewKinds)[number], string> = {
  fingerprint: "Fingerprint",
  remote: "Remote",
};

export const reviewIdTypes = ID_TYPES;
export const reviewIdTypeLabels = idTypeLabels;

/**
 * The orders the database can give quickly over hundreds of thousands of rows (each has an index
 * or a small filtered set behind it, ADR 0010). Branch, teller, kind and ID type are filters
 * instead: sorting 200 000 rows by a joined name costs seconds, filtering costs milliseconds.
 */
export const reviewSortKeys = ["createdAt", "state", "reference", "duration"] as const;
export type ReviewSortKey = (typeof reviewSortKeys)[number];

export const reviewPageSizes = [25, 50, 100] as const;
export const defaultPageSize = 50;

/** The longest range the figures and exports accept in one go. */
export const maxRangeDays = 366;

/** A filter's days in words (the list's summary, the audit trail): "On 24 Nov 2026", "From … to …", "From …", "Until …". */
export function describeDayFilter(from: string | undefined, to: string | undefined): string | undefined {
  if (from && to) return from === to ? `On ${formatDay(from)}` : `From ${formatDay(from)} to ${formatDay(to)}`;
  if (from) return `From ${formatDay(from)}`;
  return to ? `Until ${formatDay(to)}` : undefined;
}

// Real calendar days only: Date.parse reads "2026-02-31" as 3 March, PostgreSQL refuses it.
const isoDate = isoDaySchema;
const uuid = uuidSchema;

/** Each field parsed on its own, so one bad value drops only itself. */
const fieldSchemas = {
  state: z.array(z.enum(reviewStates)).max(reviewStates.length),
  kind: z.enum(reviewKinds),
  idType: z.enum(reviewIdTypes),
  // Exact purpose text (ADR 0016): the bank's purposes, or the free text of older tokens.
  purpose: z.string().trim().min(1).max(120).refine((value) => !/[\p{Cc}]/u.test(value)),
  branch: uuid,
  teller: queryTextSchema(100),
  from: isoDate,
  to: isoDate,
  reference: queryTextSchema(120),
  token: queryTextSchema(64),
  sort: z.enum(reviewSortKeys),
  dir: z.enum(["asc", "desc"]),
  page: z.coerce.number().int().min(1).max(maxPageNumber),
  size: z.coerce.number().int().refine((value) => (reviewPageSizes as readonly number[]).includes(value)),
};

export type ReviewFilters = {
  state?: ReviewState[];
  kind?: (typeof reviewKinds)[number];
  idType?: (typeof reviewIdTypes)[number];
  /** Exact purpose, as stored on the token. */
  purpose?: string;
  branch?: string;
  teller?: string;
  /** Inclusive calendar days (bank time), YYYY-MM-DD. */
  from?: string;
  to?: string;
  /** Exact match on the reference, through its blind index (ADR 0023). */
  reference?: string;
  /** Exact token. */
  token?: string;
};

export type ReviewListQuery = ReviewFilters & {
  sort: ReviewSortKey;
  dir: "asc" | "desc";
  page: number;
  size: number;
};

export const defaultListQuery: Pick<ReviewListQuery, "sort" | "dir" | "page" | "size"> = {
  sort: "createdAt",
  dir: "desc",
  page: 1,
  size: defaultPageSize,
};

type SearchParamsLike = Record<string, string | string[] | undefined> | URLSearchParams;

function readAll(params: SearchParamsLike, key: string): string[] {
  if (params instanceof URLSearchParams) return params.getAll(key);
  const value = params[key];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export type ParsedListQuery = { query: ReviewListQuery; ignored: string[] };

/** Reads the list query from the URL; bad values are dropped and named in `ignored`. */
export function parseListQuery(params: SearchParamsLike): ParsedListQuery {
  const ignored: string[] = [];
  const query: ReviewListQuery = { ...defaultListQuery };
  const states = readAll(params, "state").flatMap((value) => value.split(",")).filter(Boolean);
  if (states.length > 0) {
    const valid = states.filter((state): state is ReviewState => (reviewStates as readonly string[]).includes(state));
    if (valid.length !== states.length) ignored.push("state");
    if (valid.length > 0) query.state = [...new Set(valid)];
  }
  for (const key of ["kind", "idType", "purpose", "branch", "teller", "from", "to", "reference", "token", "sort", "dir", "page", "size"] as const) {
    const raw = readAll(params, key)[0];
    if (raw === undefined || raw === "") continue;
    const parsed = fieldSchemas[key].safeParse(raw);
    if (!parsed.success) {
      ignored.push(key);
      continue;
    }
    (query as Record<string, unknown>)[key] = parsed.data;
  }
  if (query.from && query.to && query.from > query.to) {
    [query.from, query.to] = [query.to, query.from];
  }
  return { query, ignored };
}

/** The URL query of a list view: only what differs from the defaults, in a stable order. */
export function toSearchParams(query: Partial<ReviewListQuery>): URLSearchParams {
  const params = new URLSearchParams();
  for (const state of query.state ?? []) params.append("state", state);
  for (const key of ["kind", "idType", "purpose", "branch", "teller", "from", "to", "reference", "token"] as const) {
    const value = query[key];
    if (value) params.set(key, value);
  }
  if (query.sort && query.sort !== defaultListQuery.sort) params.set("sort", query.sort);
  if (query.dir && query.dir !== defaultListQuery.dir) params.set("dir", query.dir);
  if (query.page && query.page !== 1) params.set("page", String(query.page));
  if (query.size && query.size !== defaultListQuery.size) params.set("size", String(query.size));
  return params;
}

export function hasAnyFilter(filters: ReviewFilters): boolean {
  return Boolean(
    filters.state?.length || filters.kind || filters.idType || filters.purpose || filters.branch || filters.teller || filters.from || filters.to || filters.reference || filters.token,
  );
}

// ─── Figures and reconciliation ──────────────────────────────────────────────────────────────

export const figureGroupings = ["branch", "teller", "day"] as const;
export type FigureGrouping = (typeof figureGroupings)[number];

export const figureSorts = ["name", "successRate"] as const;
export type FigureSort = (typeof figureSorts)[number];

export type FiguresQuery = { from: string; to: string; branch?: string; groupBy: FigureGrouping; sort?: FigureSort };

/** Adds days to a YYYY-MM-DD date. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Figures: a range (default the last 7 days up to `today`), at most `maxRangeDays` long. */
export function parseFiguresQuery(params: SearchParamsLike, today: string, defaultGroupBy: FigureGrouping = "branch"): FiguresQuery {
  const read = (key: string) => readAll(params, key)[0];
  let to = isoDate.safeParse(read("to")).data ?? today;
  let from = isoDate.safeParse(read("from")).data ?? addDays(to, -6);
  if (from > to) [from, to] = [to, from];
  if (daysBetween(from, to) > maxRangeDays) from = addDays(to, -(maxRangeDays - 1));
  const branch = uuid.safeParse(read("branch")).data;
  const groupBy = z.enum(figureGroupings).safeParse(read("groupBy")).data ?? defaultGroupBy;
  const sort = z.enum(figureSorts).safeParse(read("sort")).data;
  return { from, to, groupBy, ...(branch ? { branch } : {}), ...(sort === "successRate" ? { sort } : {}) };
}

export type ReconciliationQuery = { day: string; branch?: string };

export function parseReconciliationQuery(params: SearchParamsLike, today: string): ReconciliationQuery {
  const read = (key: string) => readAll(params, key)[0];
  const day = isoDate.safeParse(read("day")).data ?? today;
  const branch = uuid.safeParse(read("branch")).data;
  return { day: day > today ? today : day, ...(branch ? { branch } : {}) };
}
