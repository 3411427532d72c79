import "server-only";
import { createHash } from "node:crypto";
import { and, desc, eq, gte, inArray, sql, type Placeholder } from "drizzle-orm";
import type { Database } from "@/lib/db/types";
import { builtOncePerDatabase } from "@/lib/db/prepared";
import { authUsers, branches, tokenRequests, type TokenRequest } from "@/lib/db/schema";
import { deriveTokenState } from "@/lib/tokens/state";
import { factsFromRow, pendingLimitMs } from "@/lib/tokens/token-facts";
import { isShownAsToken, summaryColumns, type ScopedTokenRow } from "@/lib/tokens/token-row";
import type { TodayTokensAnswer, TodayTokensResponse } from "./dto";
import { derivedVersion, toSummary, type LiveViewer, type LiveViewSettings } from "./token-summary";
import { matchesTag, versionTag, type ConditionalAnswer } from "./version-tags";

/**
 * Where "today's" list starts: midnight (Ghana time = UTC), or an hour ago when that is earlier.
 * A teller working across midnight keeps the token issued at 23:58, still live at 00:05, and what
 * just finished before it; nothing of yesterday is older than an hour on the list.
 */
export function todayListStart(now: Date): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(Math.min(midnight, now.getTime() - 60 * 60_000));
}

/** Today's tokens in scope (see todayListStart): the viewer's own first, newest first within each. */
export async function listTodayTokens(
  db: Database,
  viewer: LiveViewer,
  settings: LiveViewSettings,
  now = new Date(),
): Promise<TodayTokensResponse> {
  const answer = await listTodayTokensSince(db, viewer, settings, null, now);
  if (answer.status !== 200 || !("tokens" in answer.body)) throw new Error("unreachable: no version was given");
  return answer.body;
}

/**
 * Recent list versions this instance answered, each with its tokens' versions: what a poll that
 * names one (`since`) already has, so only what changed is sent (ADR 0026). Per instance and
 * bounded; a version not found here (another instance, a restart) gets the whole list.
 */
const SNAPSHOTS_MAX = 2_000;
/**
 * The last today list answered to each viewer by this instance: the fingerprint of the rows it was
 * built from, the version it carried, and until when time alone changes none of its states. A poll
 * naming that version whose rows still have that fingerprint gets its 304 from one aggregate
 * statement, with no row read into the app (ADR 0031). Bounded, per instance.
 */
const ANSWERED_MAX = 5_000;
type TodayAnswered = { fingerprint: string; version: string; unchangedUntilMs: number };
const globalForSnapshots = globalThis as typeof globalThis & {
  verideskTodaySnapshots?: Map<string, ReadonlyMap<string, string>>;
  verideskTodayAnswered?: Map<string, TodayAnswered>;
};
const todaySnapshots = (globalForSnapshots.verideskTodaySnapshots ??= new Map());
const todayAnswered = (globalForSnapshots.verideskTodayAnswered ??= new Map());

function rememberBounded<T>(map: Map<string, T>, key: string, value: T, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/**
 * The rows today's list is built from: one condition for the list and its fingerprint. `branchId`
 * null means every branch (head office); the fingerprint passes placeholders, bound when it runs.
 */
function todayRowsCondition(listStart: Date | Placeholder, branchId: string | Placeholder | null) {
  return and(
    gte(tokenRequests.createdAt, listStart),
    inArray(tokenRequests.outcome, ["issued", "outcome_unknown", "pending"]),
    branchId === null ? undefined : eq(tokenRequests.branchId, branchId),
  );
}
const todayRowsOrder = [desc(tokenRequests.createdAt), desc(tokenRequests.id)];
const TODAY_ROWS_MAX = 300;

/**
 * One entry of the fingerprint per row, in list order: the id, the row's shown version (ADR 0033),
 * whether the service has answered since its last fault (an answer after a fault clears the
 * "service not answering" notice, and moves only `last_answer_at`, which the version leaves out)
 * and the names shown with it. The database and the app build the same text, so their md5s agree.
 */
const fingerprintEntry = sql<string>`${tokenRequests.id}::text || ':' || ${tokenRequests.shownVersion}::text || ':' || coalesce(${tokenRequests.lastAnswerAt} >= ${tokenRequests.lastFaultAt}, false)::text || ':' || ${authUsers.name} || ':' || ${branches.name}`;

function fingerprintOf(rows: ReadonlyArray<ScopedTokenRow>): string {
  const entry = ({ row, tellerName, branchName }: ScopedTokenRow) => {
    const isAnsweredSinceFault = row.lastAnswerAt !== null && row.lastFaultAt !== null && row.lastAnswerAt.getTime() >= row.lastFaultAt.getTime();
    return `${row.id}:${row.shownVersion}:${isAnsweredSinceFault}:${tellerName}:${branchName}`;
  };
  return createHash("md5").update(rows.map(entry).join(",")).digest("hex");
}

/**
 * The fingerprint of today's rows as they are now, computed in the database: one short answer.
 * The same rows, order and limit as the list, with the list's start and the branch bound when it
 * runs (two forms, as branchScopeCondition has two).
 */
function selectTodayFingerprint(db: Database, isOneBranch: boolean) {
  const listed = db
    .select({ createdAt: tokenRequests.createdAt, id: tokenRequests.id, entry: fingerprintEntry.as("entry") })
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(todayRowsCondition(sql.placeholder("listStart"), isOneBranch ? sql.placeholder("branchId") : null))
    .orderBy(...todayRowsOrder)
    .limit(TODAY_ROWS_MAX)
    .as("listed");
  return db
    .select({ fingerprint: sql<string>`md5(coalesce(string_agg(${listed.entry}, ',' order by ${listed.createdAt} desc, ${listed.id} desc), ''))` })
    .from(listed);
}
const todayFingerprintOfAnyBranch = builtOncePerDatabase("today_fingerprint_of_any_branch", (db) => selectTodayFingerprint(db, false));
const todayFingerprintOfBranch = builtOncePerDatabase("today_fingerprint_of_branch", (db) => selectTodayFingerprint(db, true));

async function readTodayFingerprint(db: Database, viewer: LiveViewer, listStart: Date): Promise<string> {
  const [answer] =
    viewer.scope.kind === "all"
      ? await todayFingerprintOfAnyBranch(db).execute({ listStart: listStart.toISOString() })
      : await todayFingerprintOfBranch(db).execute({ listStart: listStart.toISOString(), branchId: viewer.scope.branchId });
  return answer!.fingerprint;
}

/**
 * The first moment after `now` at which time alone may change what the list shows of this row
 * (see derivedVersion): a call still pending becomes shown, the 15 minutes run out, a used or
 * expired token stops being followed. Early rather than late: a moment that changes nothing only
 * costs one full read.
 */
function nextShownChangeMs(row: TokenRequest, settings: LiveViewSettings, now: Date): number {
  // isShownAsToken: a pending call is shown once strictly older than the limit.
  const moments = [row.createdAt.getTime() + pendingLimitMs(settings.issueTimeoutMs) + 1];
  const { expiresAt } = deriveTokenState(factsFromRow(row), now, settings.follow);
  if (expiresAt) moments.push(expiresAt.getTime(), expiresAt.getTime() + settings.follow.followUsedForMs);
  return Math.min(...moments.filter((moment) => moment > now.getTime()));
}

/**
 * GET /api/tokens?scope=today (ADR 0026, 0031). First the rows' fingerprint, one aggregate
 * statement: when the poll names the version this instance last answered this viewer, the rows
 * still have the fingerprint it was built from and no row's state has reached a moment time alone
 * changes (nextShownChangeMs), the answer is a 304 with nothing read into the app. Otherwise one
 * statement for the rows (each with its shown version); the list's version covers every row, the
 * state derived now of each, their order and the viewer. `since` equal to it → 304, nothing mapped;
 * `since` a version this instance remembers → only the tokens whose version changed, plus the order
 * of all (a token no longer listed is dropped by the client); otherwise the whole list.
 */
export async function listTodayTokensSince(
  db: Database,
  viewer: LiveViewer,
  settings: LiveViewSettings,
  since: string | null,
  now = new Date(),
): Promise<ConditionalAnswer<TodayTokensAnswer>> {
  const listStart = todayListStart(now);
  const listDay = listStart.toISOString().slice(0, 10);
  const answeredKey = [viewer.userId, JSON.stringify(viewer.scope), listDay].join("|");
  const answered = since === null ? undefined : todayAnswered.get(answeredKey);
  if (answered && answered.version === since && now.getTime() < answered.unchangedUntilMs) {
    // The stored fingerprint was computed from the very rows its version was built from, so a
    // match means the rows are what that version shows.
    if ((await readTodayFingerprint(db, viewer, listStart)) === answered.fingerprint) return { status: 304, etag: `"${answered.version}"` };
  }
  const rows = await db
    .select(summaryColumns)
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(todayRowsCondition(listStart, viewer.scope.kind === "all" ? null : viewer.scope.branchId))
    .orderBy(...todayRowsOrder)
    .limit(TODAY_ROWS_MAX);
  const shown = rows
    .filter((joined) => isShownAsToken(joined.row, now, settings.issueTimeoutMs))
    // Stable sort: the viewer's own tokens first, each group still newest first.
    .sort((a, b) => Number(b.row.issuedByUserId === viewer.userId) - Number(a.row.issuedByUserId === viewer.userId));
  const tokenVersions = new Map<string, string>();
  for (const joined of shown) {
    tokenVersions.set(joined.row.id, versionTag([joined.row.shownVersion, joined.tellerName, derivedVersion(joined.row, settings, now)]));
  }
  const branchName = viewer.scope.kind === "branch" ? (rows[0]?.branchName ?? (await readBranchName(db, viewer.scope.branchId))) : null;
  const version = versionTag(["today", viewer.userId, listDay, branchName ?? "", ...[...tokenVersions].flat()]).slice(1, -1);
  // An empty list's branch name is read apart from its (empty) fingerprint: not remembered.
  if (rows.length > 0) {
    const unchangedUntilMs = Math.min(...rows.map((joined) => nextShownChangeMs(joined.row, settings, now)));
    rememberBounded(todayAnswered, answeredKey, { fingerprint: fingerprintOf(rows), version, unchangedUntilMs }, ANSWERED_MAX);
  }
  const etag = `"${version}"`;
  if (since !== null && (since === version || matchesTag(since, etag))) return { status: 304, etag };
  const known = since === null ? undefined : todaySnapshots.get(since);
  const sinceVersion = since ?? "";
  rememberBounded(todaySnapshots, version, tokenVersions, SNAPSHOTS_MAX);
  const serverNow = now.toISOString();
  if (!known) {
    return { status: 200, etag, body: { serverNow, version, branchName, tokens: shown.map((joined) => toSummary(joined, viewer, settings, now)) } };
  }
  const changed = shown.filter((joined) => known.get(joined.row.id) !== tokenVersions.get(joined.row.id)).map((joined) => toSummary(joined, viewer, settings, now));
  return { status: 200, etag, body: { serverNow, version, branchName, since: sinceVersion, order: shown.map((joined) => joined.row.id), changed } };
}

async function readBranchName(db: Database, branchId: string): Promise<string | null> {
  const [branch] = await db.select({ name: branches.name }).from(branches).where(eq(branches.id, branchId));
  return branch?.name ?? null;
}
