import "server-only";
import { and, asc, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { branchScopeCondition, scopedBranchFilter, type BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { authUsers, branches } from "@/lib/db/schema";
import { displayIdNumber, displayReference } from "@/lib/pii/erasure-note";
import { computeReferenceIndex } from "@/lib/pii/blind-index";
import type { PiiKeys } from "@/lib/pii/keys";
import { maskIdNumber } from "@/lib/pii/mask";
import { normaliseReference } from "@/lib/validation/text-fields";
import { reviewIdTypeLabels, type ReviewFilters, type ReviewListQuery, type ReviewSortKey, type ReviewState } from "./filters";
import { bankDayRange } from "@/lib/bank-time";
import { failureReasonOf } from "./failure-reason";
import { hasEmailSql, reviewStateSql, sendSmsSql, stateCondition, tokenRequests } from "./token-columns";
import type { ReviewTokenRow } from "./dto";
import type { TokenKind } from "@/lib/domain/token-kinds";

/**
 * The supervisor's token list: filtered, sorted and paged in the database (never in the browser),
 * always inside the staff member's branch scope. Rows leave as DTOs with the ID number masked.
 */

export type ReviewTokenPage = {
  rows: ReviewTokenRow[];
  /** Matching rows, counted up to `countLimit`; `isCountCapped` when there are more. */
  total: number;
  isCountCapped: boolean;
  pageCount: number;
};

/**
 * Counting every match of a wide filter over hundreds of thousands of rows costs more than the
 * page itself; past this many the page says "more than 10 000" (ADR 0010).
 */
export const countLimit = 10_000;

/** The WHERE of a filtered, scoped token query. The branch filter is narrowed to the scope. */
export function reviewConditions(scope: BranchScope, filters: ReviewFilters, keys?: PiiKeys): SQL | undefined {
  const branchId = scopedBranchFilter(scope, filters.branch);
  const range = filters.from || filters.to ? bankDayRange(filters.from ?? "2000-01-01", filters.to ?? "2999-12-31") : null;
  return and(
    branchScopeCondition(scope, tokenRequests.branchId),
    branchId ? eq(tokenRequests.branchId, branchId) : undefined,
    filters.teller ? eq(tokenRequests.issuedByUserId, filters.teller) : undefined,
    filters.kind ? eq(tokenRequests.kind, filters.kind) : undefined,
    filters.idType ? eq(tokenRequests.idType, filters.idType) : undefined,
    filters.purpose ? eq(tokenRequests.purpose, filters.purpose) : undefined,
    filters.state?.length ? stateCondition(filters.state) : undefined,
    range && filters.from ? gte(tokenRequests.createdAt, range.start) : undefined,
    range && filters.to ? lt(tokenRequests.createdAt, range.end) : undefined,
    // Exact match through the blind index: the reference is stored encrypted (ADR 0023).
    filters.reference ? eq(tokenRequests.referenceIndex, referenceIndexOf(filters.reference, keys)) : undefined,
    filters.token ? eq(tokenRequests.token, filters.token.toUpperCase()) : undefined,
  );
}

/**
 * The reference in byte order: the index on it (collation "C") serves both "starts with" and the
 * sort, whatever the database's own collation is.
 */
const referenceC = sql<string>`(${tokenRequests.referenceMasked} collate "C")`;

/** The filter's reference normalised as the form normalises it (a phone in its 10-digit form), then indexed. */
function referenceIndexOf(typed: string, keys?: PiiKeys): string {
  const normalised = normaliseReference(typed);
  return computeReferenceIndex(normalised.ok ? normalised.value : typed, keys);
}

const rowColumns = {
  id: tokenRequests.id,
  token: tokenRequests.token,
  kind: tokenRequests.kind,
  idType: tokenRequests.idType,
  idNumberLast4: tokenRequests.idNumberLast4,
  reference: tokenRequests.referenceMasked,
  identityErasedAt: tokenRequests.identityErasedAt,
  identityErasedUnder: tokenRequests.identityErasedUnder,
  contactErasedAt: tokenRequests.contactErasedAt,
  contactErasedUnder: tokenRequests.contactErasedUnder,
  state: reviewStateSql,
  branchId: tokenRequests.branchId,
  branchCode: branches.code,
  branchName: branches.name,
  tellerId: tokenRequests.issuedByUserId,
  tellerName: authUsers.name,
  createdAt: tokenRequests.createdAt,
  issuedAt: tokenRequests.issuedAt,
  finishedAt: tokenRequests.finishedAt,
  msToResult: tokenRequests.msToResult,
  transactionNumber: tokenRequests.transactionNumber,
  errorCode: tokenRequests.errorCode,
  resultError: tokenRequests.resultError,
  // Whether a link went out: the words of an attempt without an answer (failure-reason.ts).
  sendSms: sendSmsSql,
  hasEmail: hasEmailSql,
};

type RawRow = {
  id: string;
  token: string | null;
  kind: TokenKind;
  idType: keyof typeof reviewIdTypeLabels;
  idNumberLast4: string | null;
  reference: string | null;
  identityErasedAt: Date | string | null;
  identityErasedUnder: string | null;
  contactErasedAt: Date | string | null;
  contactErasedUnder: string | null;
  state: ReviewState;
  branchId: string;
  branchCode: string;
  branchName: string;
  tellerId: string;
  tellerName: string;
  createdAt: Date | string;
  issuedAt: Date | string | null;
  finishedAt: Date | string | null;
  msToResult: number | null;
  transactionNumber: string | null;
  errorCode: string | null;
  resultError: string | null;
  sendSms: boolean | null;
  hasEmail: boolean;
};

// Raw SQL selections come back as strings on one driver and Dates on the other: one conversion.
function toDate(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

function toRow(raw: RawRow): ReviewTokenRow {
  const createdAt = toDate(raw.createdAt)!;
  const issuedAt = toDate(raw.issuedAt);
  const finishedAt = toDate(raw.finishedAt);
  return {
    id: raw.id,
    token: raw.token,
    kind: raw.kind,
    idType: raw.idType,
    idTypeLabel: reviewIdTypeLabels[raw.idType],
    maskedIdNumber: displayIdNumber({ ...raw, identityErasedAt: toDate(raw.identityErasedAt) }, maskIdNumber),
    isIdentityErased: raw.idNumberLast4 === null,
    reference: displayReference(raw.reference, { ...raw, contactErasedAt: toDate(raw.contactErasedAt) }) ?? "",
    state: raw.state,
    branchId: raw.branchId,
    branchCode: raw.branchCode,
    branchName: raw.branchName,
    tellerId: raw.tellerId,
    tellerName: raw.tellerName,
    createdAt: createdAt.toISOString(),
    issuedAt: issuedAt?.toISOString() ?? null,
    finishedAt: finishedAt?.toISOString() ?? null,
    secondsToResult: raw.msToResult === null ? null : Math.round(raw.msToResult / 1000),
    transactionNumber: raw.transactionNumber,
    errorCode: raw.errorCode,
    failureReason: failureReasonOf(raw),
  };
}

function orderFor(sort: ReviewSortKey, dir: "asc" | "desc"): SQL[] {
  const direction = dir === "asc" ? asc : desc;
  // Every order ends in (created_at, id) so pages never overlap or skip rows with equal keys.
  const tail = [direction(tokenRequests.createdAt), direction(tokenRequests.id)];
  switch (sort) {
    case "createdAt":
      return tail;
    case "state":
      // The raw column (null = no token, last when ascending) so (live_state, created_at) serves it.
      return [direction(tokenRequests.liveState), ...tail];
    case "reference":
      return [sql`${referenceC} ${sql.raw(dir)}`, ...tail];
    case "duration":
      return [sql`${tokenRequests.msToResult} ${sql.raw(dir)} nulls last`, ...tail];
  }
}

function baseSelect(db: Database) {
  return db
    .select(rowColumns)
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId));
}

/** `keys` only for tests with keys of their own; the app's are the default. */
export async function listReviewTokens(db: Database, scope: BranchScope, query: ReviewListQuery, keys?: PiiKeys): Promise<ReviewTokenPage> {
  const where = reviewConditions(scope, query, keys);
  const [rows, counted] = await Promise.all([
    baseSelect(db)
      .where(where)
      .orderBy(...orderFor(query.sort, query.dir))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    countCapped(db, where),
  ]);
  return {
    rows: (rows as RawRow[]).map(toRow),
    total: counted.total,
    isCountCapped: counted.isCapped,
    pageCount: Math.max(1, Math.ceil(counted.total / query.size)),
  };
}

/** count(*) of at most countLimit + 1 rows: cheap whatever the filter. */
export async function countCapped(db: Database, where: SQL | undefined): Promise<{ total: number; isCapped: boolean }> {
  const limited = db
    .select({ one: sql`1` })
    .from(tokenRequests)
    .where(where)
    .limit(countLimit + 1)
    .as("limited");
  const [result] = await db.select({ total: sql<number>`count(*)::int` }).from(limited);
  const total = Number(result?.total ?? 0);
  return total > countLimit ? { total: countLimit, isCapped: true } : { total, isCapped: false };
}

/** Rows matching a condition built elsewhere in lib/review (reconciliation's follow-up list). */
export async function listReviewTokensWhere(db: Database, where: SQL | undefined, orderBy: SQL[], limit: number): Promise<ReviewTokenRow[]> {
  const rows = await baseSelect(db).where(where).orderBy(...orderBy).limit(limit);
  return (rows as RawRow[]).map(toRow);
}

/** Tokens of one customer, found by the blind index of their ID number (never by the number). */
export async function listTokensByIdNumberIndex(db: Database, scope: BranchScope, idNumberIndex: string, limit = 100): Promise<ReviewTokenRow[]> {
  const rows = await baseSelect(db)
    .where(and(branchScopeCondition(scope, tokenRequests.branchId), eq(tokenRequests.idNumberIndex, idNumberIndex)))
    .orderBy(desc(tokenRequests.createdAt), desc(tokenRequests.id))
    .limit(limit);
  return (rows as RawRow[]).map(toRow);
}

export type { ReviewTokenRow } from "./dto";
