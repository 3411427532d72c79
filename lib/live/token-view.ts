import "server-only";
import { createHash } from "node:crypto";
import { and, desc, eq, gte, inArray, sql, type Placeholder } from "drizzle-orm";
import { z } from "zod";
import { assertInBranchScope, type BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { builtOncePerDatabase } from "@/lib/db/prepared";
import { authUsers, branches, tokenEvents, tokenRequests, type TokenEvent, type TokenRequest } from "@/lib/db/schema";
import { AppError, errorCatalog, type ErrorCode } from "@/lib/errors";
import { displayContact, displayIdNumber } from "@/lib/pii/erasure-note";
import { decryptField, maskEmail, maskIdNumber } from "@/lib/pii";
import { deriveTokenState, restartableTokenStates, tokenStateLabelFor, type FollowPolicy, type TokenStateName } from "@/lib/tokens/state";
import { idTypeLabels } from "@/lib/validation/token-form-shape";
import type { LiveTokenDetail, LiveTokenEvent, LiveTokenResponse, LiveTokenSummary, TodayTokensAnswer, TodayTokensResponse } from "./dto";
import { factsFromRow, pendingLimitMs } from "@/lib/tokens/token-facts";
import { isShownAsToken, summaryColumns, type ScopedTokenRow } from "@/lib/tokens/token-row";

/**
 * The read side of the live token: DTOs for the poll routes and the pages, from the database only
 * (never the service). Every read is scoped to the viewer's branches; a token of another branch is
 * NOT_FOUND, exactly like one that does not exist.
 */

export type LiveViewer = { userId: string; scope: BranchScope };
export type LiveViewSettings = {
  follow: FollowPolicy;
  /** An issuing call still `pending` after about this long never settled (its process ended). */
  issueTimeoutMs: number;
  /** An open token not heard about from the service for longer than this says so. */
  staleAfterMs: number;
};

const uuidSchema = z.uuid();

const slipStates: ReadonlySet<TokenStateName> = new Set(["successful", "failed"]);

export async function getLiveToken(
  db: Database,
  viewer: LiveViewer,
  id: string,
  settings: LiveViewSettings,
  now = new Date(),
): Promise<LiveTokenResponse> {
  const answer = await getLiveTokenIfChanged(db, viewer, id, settings, null, now);
  if (answer.status !== 200) throw new Error("unreachable: no version was given");
  return answer.body;
}

/**
 * The token route's one statement, built once per database (lib/db/prepared.ts): the token (with
 * its shown version), its branch, its teller and its events. Two forms, as branchScopeCondition has
 * two: any branch (head office), or the viewer's branch, bound when it runs.
 */
function selectLiveToken(db: Database) {
  return db
    .select({
      ...summaryColumns,
      events: sql<RawEvent[]>`coalesce((select json_agg(json_build_object('id', e.id, 'at', e.at, 'type', e.type, 'details', e.details) order by e.at, e.id) from ${tokenEvents} e where e.token_request_id = ${tokenRequests.id}), '[]'::json)`,
    })
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId));
}
const liveTokenOfAnyBranch = builtOncePerDatabase("live_token_of_any_branch", (db) => selectLiveToken(db).where(eq(tokenRequests.id, sql.placeholder("id"))));
const liveTokenOfBranch = builtOncePerDatabase("live_token_of_branch", (db) =>
  selectLiveToken(db).where(and(eq(tokenRequests.id, sql.placeholder("id")), eq(tokenRequests.branchId, sql.placeholder("branchId")))),
);

/** A conditional answer: 304 (nothing the viewer sees changed) or 200 with the body. */
export type ConditionalAnswer<T> = { status: 304; etag: string } | { status: 200; etag: string; body: T };

/**
 * GET /api/tokens/[id]: the token, its branch, its teller and its events in ONE statement (ADR
 * 0026). Its version covers every shown column of the row (its `shown_version`), its events (count and
 * last id), the state derived now (which time alone changes: expiry, give-up) and the viewer; when
 * it equals `ifNoneMatch` the answer is a 304 and no row is mapped, decrypted or described.
 */
export async function getLiveTokenIfChanged(
  db: Database,
  viewer: LiveViewer,
  id: string,
  settings: LiveViewSettings,
  ifNoneMatch: string | null,
  now = new Date(),
): Promise<ConditionalAnswer<LiveTokenResponse>> {
  if (!uuidSchema.safeParse(id).success) throw new AppError("NOT_FOUND", "token request id is not a uuid");
  const [found] =
    viewer.scope.kind === "all" ? await liveTokenOfAnyBranch(db).execute({ id }) : await liveTokenOfBranch(db).execute({ id, branchId: viewer.scope.branchId });
  if (!found || !isShownAsToken(found.row)) throw new AppError("NOT_FOUND", `token request ${id} not found in scope`);
  assertInBranchScope(viewer.scope, found.row.branchId, "token request");
  const lastEvent = found.events.at(-1);
  const etag = versionTag([
    "token",
    viewer.userId,
    found.row.shownVersion,
    found.branchName,
    found.tellerName,
    found.events.length,
    lastEvent?.id ?? 0,
    derivedVersion(found.row, settings, now),
    settings.staleAfterMs,
    // The page warns when the service's last answer is older than staleAfterMs: the copy it holds
    // may lag the truth by less than a third of that, never enough to warn wrongly.
    Math.floor((found.row.lastAnswerAt?.getTime() ?? 0) / Math.max(1, Math.floor(settings.staleAfterMs / 3))),
  ]);
  if (ifNoneMatch !== null && matchesTag(ifNoneMatch, etag)) return { status: 304, etag };
  const events: TokenEvent[] = found.events.map((event) => ({
    id: Number(event.id),
    tokenRequestId: found.row.id,
    at: new Date(event.at),
    type: event.type,
    details: event.details ?? {},
  }));
  return { status: 200, etag, body: { serverNow: now.toISOString(), token: toDetail(found, events, viewer, settings, now) } };
}

type RawEvent = { id: number | string; at: string; type: string; details: Record<string, unknown> | null };

/** What of a token's shown state time alone can change (its row and events staying the same). */
function derivedVersion(row: TokenRequest, settings: LiveViewSettings, now: Date): string {
  const derived = deriveTokenState(factsFromRow(row), now, settings.follow);
  return [isShownAsToken(row, now, settings.issueTimeoutMs), derived.state, derived.isFinal, derived.serviceProblem?.code ?? "", derived.expiresAt?.getTime() ?? ""].join("|");
}

function versionTag(parts: ReadonlyArray<string | number | boolean>): string {
  return `"${createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 27)}"`;
}

/** `If-None-Match` may list several tags, or be weak (W/"…"); any equal one matches. */
export function matchesTag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

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

function toSummary({ row, tellerName }: ScopedTokenRow, viewer: LiveViewer, settings: LiveViewSettings, now: Date): LiveTokenSummary {
  const derived = deriveTokenState(factsFromRow(row), now, settings.follow);
  return {
    id: row.id,
    token: row.outcome === "issued" ? row.token : null,
    kind: row.kind,
    idType: row.idType,
    idTypeLabel: idTypeLabels[row.idType],
    maskedIdNumber: displayIdNumber(row, maskIdNumber),
    reference: displayContact(row.referenceMasked, row) ?? "",
    state: derived.state,
    stateLabel: tokenStateLabelFor(derived.state, row.kind),
    isFinal: derived.isFinal,
    outcomeUnknownReason: derived.outcomeUnknownReason ?? null,
    serviceProblem: derived.serviceProblem
      ? { code: derived.serviceProblem.code, message: describeLiveFault(derived.serviceProblem.code), since: derived.serviceProblem.since.toISOString() }
      : null,
    createdAt: row.createdAt.toISOString(),
    issuedAt: row.issuedAt?.toISOString() ?? null,
    expiresAt: derived.expiresAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    tellerName,
    isMine: row.issuedByUserId === viewer.userId,
    result:
      row.resultStatus && row.transactionNumber
        ? { status: row.resultStatus, transactionNumber: row.transactionNumber, error: row.resultError }
        : null,
  };
}

function toDetail(joined: ScopedTokenRow, events: TokenEvent[], viewer: LiveViewer, settings: LiveViewSettings, now: Date): LiveTokenDetail {
  const summary = toSummary(joined, viewer, settings, now);
  const { row } = joined;
  // An issuing call that got no answer may still have sent the link: say where it would have gone.
  const isUnanswered = row.outcome !== "issued";
  const options = row.options;
  const email = row.emailEncrypted && (row.isEmailSent || isUnanswered) ? decryptField(row.emailEncrypted, `token_requests.email:${row.id}`) : null;
  // Only masked copies are stored in clear (ADR 0023); once erased they read "erased on …".
  const smsMayHaveGoneTo = isUnanswered && options?.sendSms ? row.phoneNumberMasked : null;
  const smsWentTo = displayContact(row.smsSentToMasked ?? smsMayHaveGoneTo, row);
  const erasedEmail = row.isEmailSent && row.emailEncrypted === null ? displayContact(null, row) : null;
  return {
    ...summary,
    purpose: row.purpose,
    consent:
      row.consentAttestedAt && row.consentWordingVersion !== null
        ? { attestedAt: row.consentAttestedAt.toISOString(), wordingVersion: row.consentWordingVersion }
        : null,
    branchName: joined.branchName,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    // The issuing answer is the first word from the service about the token.
    lastAnswerAt: (row.lastAnswerAt ?? row.issuedAt)?.toISOString() ?? null,
    staleAfterMs: settings.staleAfterMs,
    delivery:
      row.kind === "remote"
        ? {
            maskedPhone: smsWentTo,
            maskedEmail: email ? maskEmail(email) : erasedEmail,
            smsSent: Boolean(smsWentTo),
            isUnconfirmed: isUnanswered,
            options: options
              ? [
                  { label: "Instructions skipped", isOn: options.skipInstructions },
                  { label: "Device location captured", isOn: options.captureLocation },
                  { label: "Home address captured", isOn: options.captureHomeAddress },
                  { label: "Liveness only (no full KYC)", isOn: options.livenessOnly },
                ]
              : [],
          }
        : null,
    awaitsSmsToken: isUnanswered && row.token === null && Boolean(smsWentTo || email),
    events: events.map((event) => describeEvent(event, joined.tellerName)).filter((event): event is LiveTokenEvent => event !== null),
    // Only the issuer may start from its details (lib/tokens/restart-values.ts), and not once erased.
    newTokenHref: restartableTokenStates.has(summary.state) && summary.isMine && row.idNumberEncrypted !== null ? `/tokens/new/${row.kind}?from=${row.id}` : null,
    slipHref: slipStates.has(summary.state) ? `/tokens/${row.id}/slip` : null,
  };
}

/**
 * What a fault means while a token is being followed. Not the issuing copy ("the token may or may
 * not exist"): the token exists; only its latest news is late.
 */
const liveFaultMessages: Record<string, string> = {
  UPSTREAM_TIMEOUT: "The verification service did not answer in time.",
  UPSTREAM_NETWORK: "The verification service cannot be reached.",
  UPSTREAM_CONNECTION_LOST: "The connection to the verification service broke.",
  UPSTREAM_SERVER_ERROR: "The verification service reported a problem on its side.",
  UPSTREAM_MALFORMED: "The verification service sent an answer Veridesk could not read.",
  UPSTREAM_BAD_RESPONSE: "The verification service sent an answer Veridesk could not read.",
  UPSTREAM_REJECTED: "The verification service refused Veridesk's status request.",
  UPSTREAM_UNAUTHORIZED: "The verification service refused the bank's key. Call your administrator.",
  UPSTREAM_RATE_LIMITED: "The verification service asked Veridesk to slow down for a moment.",
};

export function describeLiveFault(code: string): string {
  return liveFaultMessages[code] ?? "Veridesk could not check this token on its side.";
}

const stateChangeLabels: Record<TokenStateName, { label: string; tone: LiveTokenEvent["tone"] }> = {
  waiting: { label: "Waiting for the customer", tone: "info" },
  in_progress: { label: "Customer started the verification", tone: "info" },
  successful: { label: "Verification successful", tone: "success" },
  failed: { label: "Verification failed", tone: "danger" },
  expired: { label: "Expired unused (15 minutes passed)", tone: "neutral" },
  invalid: { label: "The service reports the token invalid", tone: "danger" },
  outcome_unknown: { label: "No result received; Veridesk stopped checking", tone: "warning" },
};

function describeEvent(event: TokenEvent, tellerName: string): LiveTokenEvent | null {
  const at = event.at.toISOString();
  const details = event.details as Record<string, unknown>;
  const text = (key: string) => (typeof details[key] === "string" ? (details[key] as string) : undefined);
  switch (event.type) {
    case "issue.requested":
      return { at, label: `Requested by ${tellerName}`, tone: "neutral" };
    case "issue.issued":
      return { at, label: "Token issued by the service", tone: "info" };
    case "issue.outcome_unknown":
      return { at, label: "The service did not answer the request", detail: "It may still have created the token and sent the link.", tone: "warning" };
    case "issue.attached_from_sms": {
      const by = text("attachedBy");
      return { at, label: "Token from the customer's SMS entered and confirmed by the service", ...(by ? { detail: `Entered by ${by}` } : {}), tone: "info" };
    }
    case "issue.replayed":
      return null;
    case "watch.state_changed": {
      const to = text("to") as TokenStateName | undefined;
      if (!to || !(to in stateChangeLabels)) return null;
      const detail = to === "successful" ? text("transactionNumber") : to === "failed" ? [text("error"), text("transactionNumber")].filter(Boolean).join(" · ") : undefined;
      return { at, ...stateChangeLabels[to], ...(detail ? { detail } : {}) };
    }
    case "watch.service_unreachable":
      return { at, label: "The verification service is not answering", detail: describeLiveFault(text("code") ?? "INTERNAL"), tone: "warning" };
    case "watch.service_recovered":
      return { at, label: "The verification service answers again", tone: "neutral" };
    case "slip.printed":
      return { at, label: "Verification slip printed", tone: "neutral" };
    default:
      return null;
  }
}

export function isErrorCodeKnown(code: string): code is ErrorCode {
  return Object.hasOwn(errorCatalog, code);
}
