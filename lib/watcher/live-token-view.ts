import "server-only";
import { and, asc, desc, eq, gte, inArray } from "drizzle-orm";
import { z } from "zod";
import { assertInBranchScope, branchScopeCondition, type BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/client";
import { authUsers, branches, tokenEvents, tokenRequests, type TokenEvent, type TokenRequest } from "@/lib/db/schema";
import { AppError, errorCatalog, type ErrorCode } from "@/lib/errors";
import { displayContact, displayIdNumber } from "@/lib/compliance/erasure-note";
import { decryptField, maskEmail, maskIdNumber } from "@/lib/pii";
import { deriveTokenState, tokenStateLabelFor, type FollowPolicy, type TokenStateName } from "@/lib/tokens/state";
import { idTypeLabels } from "@/lib/validation";
import type { LiveTokenDetail, LiveTokenEvent, LiveTokenResponse, LiveTokenSummary, TodayTokensResponse } from "./live-token-dto";
import { factsFromRow, pendingLimitMs } from "./token-facts";

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

const summaryColumns = { row: tokenRequests, branchName: branches.name, tellerName: authUsers.name };
type Joined = { row: TokenRequest; branchName: string; tellerName: string };

const restartableStates: ReadonlySet<TokenStateName> = new Set(["expired", "failed", "invalid"]);
const slipStates: ReadonlySet<TokenStateName> = new Set(["successful", "failed"]);

export async function getLiveToken(
  db: Database,
  viewer: LiveViewer,
  id: string,
  settings: LiveViewSettings,
  now = new Date(),
): Promise<LiveTokenResponse> {
  const found = await readScopedTokenRequest(db, viewer.scope, id);
  const events = await db
    .select()
    .from(tokenEvents)
    .where(eq(tokenEvents.tokenRequestId, id))
    .orderBy(asc(tokenEvents.at), asc(tokenEvents.id));
  return { serverNow: now.toISOString(), token: toDetail(found, events, viewer, settings, now) };
}

/** The row of a token request in scope, joined with its branch and teller; NOT_FOUND otherwise. */
export async function readScopedTokenRequest(db: Database, scope: BranchScope, id: string): Promise<Joined> {
  if (!uuidSchema.safeParse(id).success) throw new AppError("NOT_FOUND", "token request id is not a uuid");
  const [found] = await db
    .select(summaryColumns)
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(and(eq(tokenRequests.id, id), branchScopeCondition(scope, tokenRequests.branchId)));
  if (!found || !isShownAsToken(found.row)) throw new AppError("NOT_FOUND", `token request ${id} not found in scope`);
  assertInBranchScope(scope, found.row.branchId, "token request");
  return found;
}

/** Today's tokens (Ghana time = UTC) in scope: the viewer's own first, newest first within each. */
export async function listTodayTokens(
  db: Database,
  viewer: LiveViewer,
  settings: LiveViewSettings,
  now = new Date(),
): Promise<TodayTokensResponse> {
  const startOfDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const rows = await db
    .select(summaryColumns)
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(
      and(
        gte(tokenRequests.createdAt, startOfDay),
        inArray(tokenRequests.outcome, ["issued", "outcome_unknown", "pending"]),
        branchScopeCondition(viewer.scope, tokenRequests.branchId),
      ),
    )
    .orderBy(desc(tokenRequests.createdAt))
    .limit(300);
  const tokens = rows
    .filter((joined) => isShownAsToken(joined.row, now, settings.issueTimeoutMs))
    .map((joined) => toSummary(joined, viewer, settings, now))
    // Stable sort: the viewer's own tokens first, each group still newest first.
    .sort((a, b) => Number(b.isMine) - Number(a.isMine));
  const branchName = viewer.scope.kind === "branch" ? (rows[0]?.branchName ?? (await readBranchName(db, viewer.scope.branchId))) : null;
  return { serverNow: now.toISOString(), tokens, branchName };
}

async function readBranchName(db: Database, branchId: string): Promise<string | null> {
  const [branch] = await db.select({ name: branches.name }).from(branches).where(eq(branches.id, branchId));
  return branch?.name ?? null;
}

/**
 * Rows that are tokens (or may be): issued ones, and calls whose outcome is unknown. A refused or
 * failed call never produced a token; a call still running is shown once it has settled.
 */
function isShownAsToken(row: TokenRequest, now = new Date(), issueTimeoutMs = 30_000): boolean {
  if (row.outcome === "issued" || row.outcome === "outcome_unknown") return true;
  return row.outcome === "pending" && now.getTime() - row.createdAt.getTime() > pendingLimitMs(issueTimeoutMs);
}

function toSummary({ row, tellerName }: Joined, viewer: LiveViewer, settings: LiveViewSettings, now: Date): LiveTokenSummary {
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

function toDetail(joined: Joined, events: TokenEvent[], viewer: LiveViewer, settings: LiveViewSettings, now: Date): LiveTokenDetail {
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
    newTokenHref: restartableStates.has(summary.state) ? `/tokens/new/${row.kind}?from=${row.id}` : null,
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
