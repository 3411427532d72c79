import "server-only";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { assertInBranchScope, type BranchScope } from "@/lib/auth/branch-scope";
import type { Staff } from "@/lib/auth/types";
import { recordAuditEvent } from "@/lib/audit";
import { auditCaseRouting } from "@/lib/compliance/case-routing";
import { auditActionLabel } from "@/lib/audit/actions";
import type { Database } from "@/lib/db/types";
import { auditEvents, authUsers, tokenEvents } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { displayContact, erasedText } from "@/lib/pii/erasure-note";
import { decryptField, type PiiKeys } from "@/lib/pii";
import { wasLinkSent } from "@/lib/domain/token-kinds";
import { deriveTokenState } from "@/lib/tokens/state";
import { factsFromRow } from "@/lib/tokens/token-facts";
import { reviewAuditActions } from "./audit-actions";
import { failureReasonOf } from "./failure-reason";
import { tokenRequests } from "./token-columns";
import { listReviewTokensWhere, type ReviewTokenRow } from "./token-list";

/**
 * A token as a supervisor reviews it: the row (masked), its whole event history, and who has
 * looked at it — every supervisor's view and every reveal of the ID number is itself audited.
 */

export type ReviewTokenEvent = { at: string; type: string; details: Record<string, unknown> };
export type ReviewAccessEvent = { at: string; action: string; label: string; who: string; reason: string | null };

export type ReviewTokenDetail = {
  token: ReviewTokenRow & {
    purpose: string | null;
    /** Where the link went (remote tokens), masked. */
    smsSentTo: string | null;
    isEmailSent: boolean;
    /** Whether the attempt sent the customer a link (SMS or e-mail): only then can its token be entered from the customer's SMS. */
    isLinkSent: boolean;
    /** The remote options that were on, in words. */
    optionsOn: string[];
    expiresAt: string | null;
    consent: { attestedAt: string; wordingVersion: number } | null;
    /** A legal hold exempts the token from erasure until released (ADR 0022). */
    legalHold: { since: string; reason: string; byName: string | null; byHeadOffice: boolean } | null;
    /** "erased on DATE under the retention policy", per group of data; null while held. */
    identityErased: string | null;
    contactErased: string | null;
  };
  events: ReviewTokenEvent[];
  access: ReviewAccessEvent[];
  /** Staff usernames named in the events (the SMS recovery) → their names. */
  namesByUsername: Record<string, string>;
};

const optionLabels: Record<string, string> = {
  sendSms: "Link sent by SMS",
  skipInstructions: "Instructions skipped",
  captureLocation: "Location captured",
  captureHomeAddress: "Home address captured",
  livenessOnly: "Liveness only",
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findInScope(db: Database, scope: BranchScope, id: string) {
  // An id that is not even a uuid, or a token of another branch: the same "not found".
  if (!uuidPattern.test(id)) throw new AppError("NOT_FOUND", `token request id ${id} is not a uuid`);
  const [row] = await listReviewTokensWhere(db, eq(tokenRequests.id, id), [], 1);
  if (!row) throw new AppError("NOT_FOUND", `token request ${id} not found`);
  assertInBranchScope(scope, row.branchId, "token request");
  return row;
}

/** Reads the token and records that this supervisor opened it. */
export async function openReviewTokenDetail(db: Database, context: { staff: Staff; scope: BranchScope; requestId?: string }, id: string): Promise<ReviewTokenDetail> {
  const row = await findInScope(db, context.scope, id);
  await recordAuditEvent(db, {
    action: reviewAuditActions.tokenViewed,
    actor: { userId: context.staff.userId, username: context.staff.username },
    subject: { type: "token_request", id },
    branchId: row.branchId,
    requestId: context.requestId,
  });
  const [extra] = await db.select().from(tokenRequests).where(eq(tokenRequests.id, id));
  // One token: its state derived afresh from the stored facts, as the live page does (the list
  // shows the watcher's stored state, which may lag by one poll).
  const state = extra && extra.outcome === "issued" ? deriveTokenState(factsFromRow(extra), new Date()).state : row.state;
  const [events, access] = await Promise.all([
    db.select({ at: tokenEvents.at, type: tokenEvents.type, details: tokenEvents.details }).from(tokenEvents).where(eq(tokenEvents.tokenRequestId, id)).orderBy(asc(tokenEvents.at), asc(tokenEvents.id)),
    db
      .select({ at: auditEvents.at, action: auditEvents.action, who: auditEvents.actorLabel, name: authUsers.name, details: auditEvents.details })
      .from(auditEvents)
      .leftJoin(authUsers, eq(authUsers.id, auditEvents.actorUserId))
      .where(and(eq(auditEvents.subjectType, "token_request"), eq(auditEvents.subjectId, id), inArray(auditEvents.action, [reviewAuditActions.tokenViewed, reviewAuditActions.idRevealed]), auditCaseRouting(context.staff)))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(100),
  ]);
  const usernames = [...new Set(events.map((event) => event.details.attachedBy).filter((value): value is string => typeof value === "string"))];
  const named = usernames.length
    ? await db.select({ username: authUsers.username, name: authUsers.name }).from(authUsers).where(inArray(authUsers.username, usernames))
    : [];
  const linkFacts = { kind: row.kind, sendSms: extra?.options?.sendSms ?? null, hasEmail: extra ? extra.emailEncrypted !== null : false };
  const tokenWords = row.token ? `token ${row.token}` : "this attempt";
  return {
    namesByUsername: Object.fromEntries(named.filter((entry) => entry.username).map((entry) => [entry.username!, entry.name])),
    token: {
      ...row,
      state,
      // From the state derived just now, and the service's own failure text.
      failureReason: failureReasonOf({ state, token: row.token, resultError: extra?.resultError ?? null, errorCode: row.errorCode, ...linkFacts }),
      isLinkSent: wasLinkSent(linkFacts),
      purpose: extra?.purpose ?? null,
      smsSentTo: extra ? displayContact(extra.smsSentToMasked, extra) : null,
      consent:
        extra?.consentAttestedAt && extra.consentWordingVersion !== null
          ? { attestedAt: extra.consentAttestedAt.toISOString(), wordingVersion: extra.consentWordingVersion }
          : null,
      legalHold:
        extra?.legalHoldAt && extra.legalHoldReason
          ? {
              since: extra.legalHoldAt.toISOString(),
              reason: extra.legalHoldReason,
              byName: await staffNameOf(db, extra.legalHoldByUserId),
              byHeadOffice: extra.legalHoldByHeadOffice,
            }
          : null,
      identityErased: extra?.identityErasedAt ? erasedText(extra.identityErasedAt, extra.identityErasedUnder) : null,
      contactErased: extra?.contactErasedAt ? erasedText(extra.contactErasedAt, extra.contactErasedUnder) : null,
      isEmailSent: extra?.isEmailSent ?? false,
      optionsOn: Object.entries(extra?.options ?? {})
        .filter(([, isOn]) => isOn === true)
        .map(([name]) => optionLabels[name] ?? name),
      expiresAt: extra?.expiresAt?.toISOString() ?? null,
    },
    events: events.map((event) => ({ at: event.at.toISOString(), type: event.type, details: event.details })),
    access: access.map((event) => ({
      at: event.at.toISOString(),
      action: event.action,
      label: event.action === reviewAuditActions.idRevealed ? `revealed the ID number of ${tokenWords}` : event.action === reviewAuditActions.tokenViewed ? `opened ${tokenWords}` : auditActionLabel(event.action),
      who: event.name ?? event.who ?? "—",
      reason: typeof event.details.reason === "string" ? event.details.reason : null,
    })),
  };
}

/**
 * The full ID number, for a typed reason, audited in the same transaction as the read: no reveal
 * without its record. The number goes to the supervisor's screen and nowhere else.
 */
export async function revealIdNumber(
  db: Database,
  keys: PiiKeys,
  context: { staff: Staff; scope: BranchScope; requestId: string },
  input: { tokenRequestId: string; reason: string },
): Promise<{ idNumber: string }> {
  const row = await findInScope(db, context.scope, input.tokenRequestId);
  return db.transaction(async (tx) => {
    const [stored] = await tx.select({ encrypted: tokenRequests.idNumberEncrypted }).from(tokenRequests).where(eq(tokenRequests.id, row.id));
    if (!stored) throw new AppError("NOT_FOUND", `token request ${row.id} vanished`);
    if (stored.encrypted === null) {
      throw new AppError("CONFLICT", `token request ${row.id}: identity data erased`, {
        userMessage: "The ID number of this token was erased under the retention policy: there is nothing to show.",
      });
    }
    const idNumber = decryptField(stored.encrypted, `token_requests.id_number:${row.id}`, keys);
    await recordAuditEvent(tx, {
      action: reviewAuditActions.idRevealed,
      actor: { userId: context.staff.userId, username: context.staff.username },
      subject: { type: "token_request", id: row.id },
      branchId: row.branchId,
      details: { reason: input.reason, idType: row.idType },
      requestId: context.requestId,
    });
    return { idNumber };
  });
}

async function staffNameOf(db: Database, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [user] = await db.select({ name: authUsers.name }).from(authUsers).where(eq(authUsers.id, userId));
  return user?.name ?? null;
}
