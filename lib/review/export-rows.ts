import "server-only";
import type { PiiKeys } from "@/lib/pii/keys";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { authUsers, branches } from "@/lib/db/schema";
import type { ReviewFilters, ReviewState, reviewIdTypeLabels, reviewKindLabels } from "./filters";
import { hasEmailSql, reviewStateSql, sendSmsSql, tokenRequests } from "./token-columns";
import { reviewConditions } from "./token-list";

/**
 * The rows of the token exports (ADRs 0011, 0013): every row the list's filters match, newest
 * first, read in keyset pages on (created_at, id) and handed on a page at a time, so the CSV
 * stream writes each page as it comes. Only the columns the file shows are read, times come as
 * numbers, and each row stays the object the driver gave: no second DTO per row.
 */

/**
 * Rows per query: about 45 KB of CSV, one chunk of the response. Memory is flat from 100 to
 * 1 000 rows a page (bench/export-memory.ts); below about 250 the per-query cost starts to show
 * in the export's time, above it a slow reader only makes the server hold more.
 */
export const exportPageSize = 250;

export type ExportTokenRow = {
  id: string;
  /** created_at as PostgreSQL prints it: the keyset cursor (a JS Date would drop microseconds). */
  cursorAt: string;
  /** Times as epoch milliseconds (floored, as a JS Date would read them): no Date per value. */
  createdAtMs: number;
  token: string | null;
  kind: keyof typeof reviewKindLabels;
  idType: keyof typeof reviewIdTypeLabels;
  /** Null once erased (ADR 0022): the erasure columns below say when and under what. */
  idNumberLast4: string | null;
  reference: string | null;
  identityErasedAtMs: number | null;
  identityErasedUnder: string | null;
  contactErasedAtMs: number | null;
  contactErasedUnder: string | null;
  state: ReviewState;
  branchName: string;
  tellerName: string;
  issuedAtMs: number | null;
  finishedAtMs: number | null;
  /** The stored time to result (ADR 0014): the same number the list and the figures use. */
  msToResult: number | null;
  transactionNumber: string | null;
  errorCode: string | null;
  /** The service's failure text of a FAILED token (the reason the CSV reports). */
  resultError: string | null;
  /** What went to the customer: the words of an attempt without an answer (failure-reason.ts). */
  sendSms: boolean | null;
  hasEmail: boolean;
};

/**
 * A timestamp as epoch milliseconds, floored like a JS Date reading PostgreSQL's text: a number,
 * not a Date per value (under `next start` every Date is built by Next's instrumented Date
 * constructor, and those were most of the server's growth: ADR 0013).
 */
const epochMs = <T extends number | null>(column: AnyPgColumn) => sql<T>`floor(extract(epoch from ${column}) * 1000)::float8`;

const exportColumns = {
  id: tokenRequests.id,
  cursorAt: sql<string>`${tokenRequests.createdAt}::text`,
  createdAtMs: epochMs<number>(tokenRequests.createdAt),
  token: tokenRequests.token,
  kind: tokenRequests.kind,
  idType: tokenRequests.idType,
  idNumberLast4: tokenRequests.idNumberLast4,
  reference: tokenRequests.referenceMasked,
  identityErasedAtMs: epochMs<number | null>(tokenRequests.identityErasedAt),
  identityErasedUnder: tokenRequests.identityErasedUnder,
  contactErasedAtMs: epochMs<number | null>(tokenRequests.contactErasedAt),
  contactErasedUnder: tokenRequests.contactErasedUnder,
  state: reviewStateSql,
  branchName: branches.name,
  tellerName: authUsers.name,
  issuedAtMs: epochMs<number | null>(tokenRequests.issuedAt),
  finishedAtMs: epochMs<number | null>(tokenRequests.finishedAt),
  msToResult: tokenRequests.msToResult,
  transactionNumber: tokenRequests.transactionNumber,
  errorCode: tokenRequests.errorCode,
  resultError: tokenRequests.resultError,
  sendSms: sendSmsSql,
  hasEmail: hasEmailSql,
};

/**
 * Pages of the rows matching `filters` within `scope`. Each page is one query, run only when the
 * consumer asks for the next page; ending the iteration early (`return`) runs no further query.
 */
export function readExportPages(db: Database, scope: BranchScope, filters: ReviewFilters, options?: { pageSize?: number; keys?: PiiKeys }): AsyncGenerator<ExportTokenRow[]>;
export function readExportPages(
  db: Database,
  scope: BranchScope,
  filters: ReviewFilters,
  options: { pageSize?: number; withCiphertext: true; keys?: PiiKeys },
): AsyncGenerator<(ExportTokenRow & { idNumberEncrypted: string | null })[]>;
export async function* readExportPages(
  db: Database,
  scope: BranchScope,
  filters: ReviewFilters,
  options: { pageSize?: number; withCiphertext?: boolean; keys?: PiiKeys } = {},
): AsyncGenerator<ExportTokenRow[]> {
  const pageSize = options.pageSize ?? exportPageSize;
  const where = reviewConditions(scope, filters, options.keys);
  const columns = options.withCiphertext ? { ...exportColumns, idNumberEncrypted: tokenRequests.idNumberEncrypted } : exportColumns;
  let after: { cursorAt: string; id: string } | null = null;
  for (;;) {
    const keyset: SQL | undefined = after
      ? sql`(${tokenRequests.createdAt}, ${tokenRequests.id}) < (${after.cursorAt}::timestamptz, ${after.id}::uuid)`
      : undefined;
    const page: ExportTokenRow[] = await db
      .select(columns)
      .from(tokenRequests)
      .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
      .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
      .where(and(where, keyset))
      .orderBy(desc(tokenRequests.createdAt), desc(tokenRequests.id))
      .limit(pageSize);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    const last = page.at(-1)!;
    after = { cursorAt: last.cursorAt, id: last.id };
  }
}
