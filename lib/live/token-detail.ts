import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { assertInBranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { builtOncePerDatabase } from "@/lib/db/prepared";
import { authUsers, branches, tokenEvents, tokenRequests, type TokenEvent } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { displayContact } from "@/lib/pii/erasure-note";
import { decryptField, maskEmail } from "@/lib/pii";
import { restartableTokenStates, type TokenStateName } from "@/lib/tokens/state";
import { isShownAsToken, summaryColumns, type ScopedTokenRow } from "@/lib/tokens/token-row";
import type { LiveTokenDetail, LiveTokenEvent, LiveTokenResponse } from "./dto";
import { describeEvent } from "./event-wording";
import { derivedVersion, toSummary, type LiveViewer, type LiveViewSettings } from "./token-summary";
import { matchesTag, versionTag, type ConditionalAnswer } from "./version-tags";

/** The token's page and GET /api/tokens/[id]: one token in full, with its history in words. */

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
