import "server-only";
import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { branchScopeCondition, scopedBranchFilter, type BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { authUsers, branches } from "@/lib/db/schema";
import type { FigureGrouping, FiguresQuery } from "./filters";
import { BANK_TIME_ZONE, formatDay } from "@/lib/bank-time";
import { bankDayRange } from "@/lib/bank-time";
import { reviewStateOf, tokenRequests } from "./token-columns";
import type { FigureCounts, FigureGroup } from "./dto";

/**
 * The review figures (ADR 0010), counted by the database in one pass over the range:
 *
 * - requests: every attempt to issue, whatever came of it;
 * - issued: attempts the service answered with a token;
 * - successful / failed / expired / invalid: issued tokens in that state;
 * - outcome unknown: issuing calls that never answered, plus used tokens whose result never came;
 * - open: issued tokens still waiting or in progress (only ever recent ones);
 * - not issued: attempts the service refused or could not take (nothing reached the customer);
 * - success rate: successful ÷ tokens that reached a final state (open tokens are not yet a
 *   success or a failure, so today's rate is not dragged down by the morning's open tokens);
 * - median and 90th-percentile seconds from issue to result, over tokens with a result.
 *
 */

export type FiguresReport = {
  query: FiguresQuery;
  groups: FigureGroup[];
  total: FigureCounts;
};

const finalStates: ReadonlySet<string> = new Set(["successful", "failed", "expired", "invalid", "outcome_unknown"]);

/**
 * One row per (group, state, outcome) with its count and the times to result of its tokens: the
 * database does one cheap hash aggregate over the covering index, and the counts, rate and
 * percentiles are finished here. Ordered-set aggregates (percentile_cont) per group cost more than
 * the whole scan on PGlite (ADR 0010); the percentiles below use percentile_cont's own definition.
 */
export function partialFigureColumns() {
  return {
    // Raw columns, mapped to the review state in TypeScript (reviewStateOf): a CASE on every row
    // costs more than the grouping itself on PGlite.
    liveState: tokenRequests.liveState,
    outcome: tokenRequests.outcome,
    count: sql<number>`count(*)::int`,
    // The stored whole milliseconds (ADR 0014), joined by commas: far cheaper for PGlite to hand
    // over than a float8[] it must parse, or an interval computed and printed for every row.
    // Null for tokens without a result, which string_agg skips.
    msToResult: sql<string | null>`string_agg(${tokenRequests.msToResult}::text, ',')`,
  };
}

export type PartialFigureRow = { liveState: string | null; outcome: string; count: number; msToResult: string | null };

/** Sums partial rows into counts. */
export class FigureAccumulator {
  private counts = { requests: 0, issued: 0, successful: 0, failed: 0, expired: 0, invalid: 0, outcomeUnknown: 0, open: 0, notIssued: 0 };
  private finalCount = 0;
  private milliseconds: number[] = [];

  add(row: PartialFigureRow): void {
    const count = Number(row.count);
    const counts = this.counts;
    const state = reviewStateOf(row.outcome, row.liveState);
    counts.requests += count;
    if (row.outcome === "issued") counts.issued += count;
    switch (state) {
      case "not_issued":
        counts.notIssued += count;
        break;
      case "successful":
      case "failed":
      case "expired":
      case "invalid":
        counts[state] += count;
        break;
      case "outcome_unknown":
        counts.outcomeUnknown += count;
        break;
      case "waiting":
      case "in_progress":
        counts.open += count;
        break;
    }
    if (finalStates.has(state) && row.outcome === "issued") this.finalCount += count;
    if (row.msToResult) for (const value of row.msToResult.split(",")) this.milliseconds.push(Number(value));
  }

  result(): FigureCounts {
    const sorted = this.milliseconds.sort((a, b) => a - b);
    const toSeconds = (milliseconds: number | null) => (milliseconds === null ? null : Math.round(milliseconds / 1000));
    return {
      ...this.counts,
      successRate: this.finalCount > 0 ? this.counts.successful / this.finalCount : null,
      medianSecondsToResult: toSeconds(percentileCont(sorted, 0.5)),
      p90SecondsToResult: toSeconds(percentileCont(sorted, 0.9)),
    };
  }
}

/** PostgreSQL's percentile_cont: linear interpolation between the two closest ranks. */
export function percentileCont(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

export const emptyCounts: FigureCounts = new FigureAccumulator().result();

function rangeConditions(scope: BranchScope, query: FiguresQuery): SQL | undefined {
  const { start, end } = bankDayRange(query.from, query.to);
  const branchId = scopedBranchFilter(scope, query.branch);
  return and(
    branchScopeCondition(scope, tokenRequests.branchId),
    branchId ? eq(tokenRequests.branchId, branchId) : undefined,
    gte(tokenRequests.createdAt, start),
    lt(tokenRequests.createdAt, end),
  );
}

/**
 * What a grouping selects and groups by: raw columns where possible (building a key string on
 * every row costs more than the grouping on PGlite); a day is grouped as a date, read as text.
 */
function groupingOf(grouping: FigureGrouping): { columns: { a: SQL<string>; b?: SQL<string> }; groupBy: SQL[] } {
  switch (grouping) {
    case "branch":
      return { columns: { a: sql<string>`${tokenRequests.branchId}` }, groupBy: [sql`${tokenRequests.branchId}`] };
    case "teller":
      // Per teller and branch: a teller who moved branch is counted where each token was issued.
      return {
        columns: { a: sql<string>`${tokenRequests.issuedByUserId}`, b: sql<string>`${tokenRequests.branchId}` },
        groupBy: [sql`${tokenRequests.issuedByUserId}`, sql`${tokenRequests.branchId}`],
      };
    case "day": {
      const day = sql`(${tokenRequests.createdAt} at time zone ${sql.raw(`'${BANK_TIME_ZONE}'`)})::date`;
      return { columns: { a: sql<string>`${day}::text` }, groupBy: [day] };
    }
  }
}

export async function computeFigures(db: Database, scope: BranchScope, query: FiguresQuery): Promise<FiguresReport> {
  const grouping = groupingOf(query.groupBy);
  const rows = (await db.transaction(async (tx) => {
    // The planner guesses 8 kB of memory for each group's string_agg and, for the few thousand
    // (teller, branch, state, outcome) groups of a month, would sort 30 000 rows by text keys
    // rather than hash them: several times slower on PGlite. Hash aggregation spills to disk
    // if it must, so preferring it is safe (ADR 0014). Local to this read-only transaction.
    await tx.execute(sql`set local enable_sort = off`);
    return tx
      .select({ ...grouping.columns, ...partialFigureColumns() })
      .from(tokenRequests)
      .where(rangeConditions(scope, query))
      .groupBy(...grouping.groupBy, tokenRequests.liveState, tokenRequests.outcome);
  })) as (PartialFigureRow & { a: string; b?: string })[];

  const total = new FigureAccumulator();
  const byKey = new Map<string, FigureAccumulator>();
  for (const row of rows) {
    total.add(row);
    const key = row.b === undefined ? String(row.a) : `${row.a}|${row.b}`;
    let group = byKey.get(key);
    if (!group) byKey.set(key, (group = new FigureAccumulator()));
    group.add(row);
  }
  const labels = await labelsFor(db, query.groupBy, [...byKey.keys()]);
  const groups = [...byKey.entries()]
    .map(([groupKey, accumulator]) => ({ key: groupKey, ...labels(groupKey), ...accumulator.result() }))
    .sort((a, b) => (query.groupBy === "day" ? a.key.localeCompare(b.key) : a.label.localeCompare(b.label) || (a.sublabel ?? "").localeCompare(b.sublabel ?? "")));
  return { query, groups, total: total.result() };
}

async function labelsFor(db: Database, grouping: FigureGrouping, keys: string[]): Promise<(key: string) => { label: string; sublabel?: string }> {
  if (grouping === "day") {
    return (key) => ({ label: formatDay(key, { weekday: true }) });
  }
  if (keys.length === 0) return (key) => ({ label: key });
  const branchRows = await db.select({ id: branches.id, name: branches.name }).from(branches);
  const branchNames = new Map(branchRows.map((row) => [row.id, row.name]));
  if (grouping === "branch") return (key) => ({ label: branchNames.get(key) ?? "Unknown branch" });
  const tellerIds = [...new Set(keys.map((key) => key.split("|")[0]!))];
  const rows = await db
    .select({ id: authUsers.id, name: authUsers.name })
    .from(authUsers)
    .where(sql`${authUsers.id} in (${sql.join(tellerIds.map((id) => sql`${id}`), sql`, `)})`);
  const names = new Map(rows.map((row) => [row.id, row.name]));
  // One branch only (a branch supervisor's figures): naming it on every row says nothing.
  const isOneBranch = new Set(keys.map((key) => key.split("|")[1])).size === 1;
  return (key) => {
    const [tellerId = "", branchId = ""] = key.split("|");
    return { label: names.get(tellerId) ?? "Unknown teller", ...(isOneBranch ? {} : { sublabel: branchNames.get(branchId) }) };
  };
}

export type { FigureCounts, FigureGroup } from "./dto";
