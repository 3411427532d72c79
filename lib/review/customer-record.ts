import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { assertInBranchScope, branchScopeCondition, type BranchScope } from "@/lib/auth/branch-scope";
import type { Staff } from "@/lib/auth/types";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/types";
import { branches, tokenRequests, type TokenRequest } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { lastFourOf, maskIdNumber, type PiiKeys } from "@/lib/pii";
import { reviewIdTypeLabels, reviewStateLabels } from "@/lib/review/filters";
import { needsDateOfBirth } from "@/lib/domain/id-types";
import { blindIndexOfSearchedIdNumber, normaliseSearchedIdNumber } from "@/lib/review/id-search";
import { reviewStateSql } from "@/lib/review/token-columns";
import type { ReviewState } from "@/lib/review/filters";
import type { customerErasureRequestSchema, customerRecordRequestSchema, legalHoldSchema } from "./customer-record-schema";
import { erasePart } from "@/lib/compliance/erasure";
import { erasedText, formatErasureDay } from "@/lib/pii/erasure-note";
import { AML_MINIMUM_YEARS, contactEraseDue, erasureOnRequest, identityEraseDue, type RetentionFacts, type RetentionSettings } from "@/lib/compliance/retention-policy";
import type { CustomerRecord, ErasureOnRequestReport, HeldDatum } from "./dto";

/**
 * The customer's own records (Act 843's right of access; ADR 0022): every token held for an ID
 * number, with what personal data is still held and when it will be erased; erasure at the
 * customer's request; legal holds. Each is audited with its reason; the ID number itself is never
 * logged, audited or returned (only its masked form).
 */

type Context = { staff: Staff; scope: BranchScope; requestId: string };

const kindLabels = { fingerprint: "Fingerprint, in branch", remote: "Remote, by link" } as const;

async function rowsForIdNumber(db: Database, scope: BranchScope, idNumberIndex: string) {
  return db
    .select({ row: tokenRequests, branchName: branches.name, state: reviewStateSql })
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .where(and(branchScopeCondition(scope, tokenRequests.branchId), eq(tokenRequests.idNumberIndex, idNumberIndex)))
    .orderBy(desc(tokenRequests.createdAt), desc(tokenRequests.id))
    .limit(1_000);
}

/**
 * Whose record an audit event is about: the ID type and the masked number (`GHA-•••••015-4`), as
 * the pages show it. Never the number itself, nor its blind index (which a key rotation changes,
 * and which a reader of the trail could not check anyway).
 */
function customerOf(input: z.output<typeof customerRecordRequestSchema>): { idType: string; maskedIdNumber: string } {
  return { idType: input.idType, maskedIdNumber: maskIdNumber(input.idType, lastFourOf(normaliseSearchedIdNumber(input))) };
}

function factsOf(row: TokenRequest): RetentionFacts {
  return row;
}

function personalDataOf(row: TokenRequest, settings: RetentionSettings): HeldDatum[] {
  const facts = factsOf(row);
  const until = (due: Date) => (row.legalHoldAt ? "held; kept while the legal hold lasts" : `held; to be erased on ${formatErasureDay(due)}`);
  const identityStatus = row.identityErasedAt ? erasedText(row.identityErasedAt, row.identityErasedUnder) : until(identityEraseDue(facts, settings));
  const contactStatus = row.contactErasedAt ? erasedText(row.contactErasedAt, row.contactErasedUnder) : until(contactEraseDue(facts, settings));
  const data: HeldDatum[] = [{ label: "ID number (encrypted)", status: identityStatus }];
  if (row.dateOfBirthEncrypted || (row.identityErasedAt && needsDateOfBirth(row.idType))) data.push({ label: "Date of birth (encrypted)", status: identityStatus });
  data.push({ label: "Reference (encrypted)", status: contactStatus });
  if (row.kind === "remote") data.push({ label: "Mobile number (encrypted)", status: contactStatus });
  if (row.emailEncrypted || (row.contactErasedAt && row.isEmailSent)) data.push({ label: "E-mail address (encrypted)", status: contactStatus });
  return data;
}

/** Produces the record of verifications held for one ID number; audited with the reason. */
export async function produceCustomerRecord(
  db: Database,
  keys: PiiKeys,
  settings: RetentionSettings,
  context: Context,
  input: z.output<typeof customerRecordRequestSchema>,
): Promise<CustomerRecord> {
  const index = blindIndexOfSearchedIdNumber(input, keys);
  const rows = await rowsForIdNumber(db, context.scope, index);
  await recordAuditEvent(db, {
    action: "customer.record_produced",
    actor: { userId: context.staff.userId, username: context.staff.username },
    branchId: context.staff.branch.id,
    details: { ...customerOf(input), tokens: rows.length, reason: input.reason },
    requestId: context.requestId,
  });
  const lastFour = rows.find(({ row }) => row.idNumberLast4)?.row.idNumberLast4 ?? null;
  return {
    producedAt: new Date().toISOString(),
    producedBy: context.staff.name,
    idTypeLabel: reviewIdTypeLabels[input.idType],
    maskedIdNumber: lastFour ? maskIdNumber(input.idType, lastFour) : "—",
    retention: settings,
    entries: rows.map(({ row, branchName, state }) => ({
      tokenRequestId: row.id,
      createdAt: row.createdAt.toISOString(),
      branchName,
      purpose: row.purpose ?? "—",
      kindLabel: kindLabels[row.kind],
      idTypeLabel: reviewIdTypeLabels[row.idType],
      outcome: reviewStateLabels[state as ReviewState] ?? String(state),
      transactionNumber: row.transactionNumber,
      consent:
        row.consentAttestedAt && row.consentWordingVersion !== null
          ? `Attested by the teller, wording version ${row.consentWordingVersion}`
          : "Not recorded (issued before consent was recorded)",
      personalData: personalDataOf(row, settings),
      legalHold: row.legalHoldAt && row.legalHoldReason ? { since: row.legalHoldAt.toISOString(), reason: row.legalHoldReason } : null,
    })),
  };
}

/**
 * Erases the customer's data at their request: contact data at once; identity data only past the
 * AML minimum; nothing under a legal hold. Refused, saying why, when nothing may be erased.
 */
export async function eraseCustomerDataOnRequest(
  db: Database,
  keys: PiiKeys,
  context: Context,
  input: z.output<typeof customerErasureRequestSchema>,
  now: Date = new Date(),
): Promise<ErasureOnRequestReport> {
  const index = blindIndexOfSearchedIdNumber(input, keys);
  const rows = await rowsForIdNumber(db, context.scope, index);
  const report: ErasureOnRequestReport = { contactErased: 0, identityErased: 0, held: [], identityKept: [] };
  const contactIds: string[] = [];
  const identityIds: string[] = [];
  for (const { row } of rows) {
    const verdict = erasureOnRequest({ ...factsOf(row), legalHoldReason: row.legalHoldReason }, now);
    if (verdict.kind === "held") {
      report.held.push({ tokenRequestId: row.id, reason: verdict.reason });
      continue;
    }
    if (verdict.contact) contactIds.push(row.id);
    if (verdict.identity) identityIds.push(row.id);
    if (verdict.identityKeptUntil) report.identityKept.push({ tokenRequestId: row.id, until: verdict.identityKeptUntil.toISOString() });
  }
  const actor = { userId: context.staff.userId, username: context.staff.username };
  if (contactIds.length === 0 && identityIds.length === 0) {
    const why = refusalReason(rows.length, report);
    await recordAuditEvent(db, {
      action: "customer.erasure_refused",
      actor,
      branchId: context.staff.branch.id,
      details: { ...customerOf(input), tokens: rows.length, reason: input.reason, why },
      requestId: context.requestId,
    });
    throw new AppError("CONFLICT", `erasure on request refused: ${why}`, { userMessage: why });
  }
  await db.transaction(async (tx) => {
    report.identityErased = (await erasePart(tx, identityIds, "identity", "request", now)).length;
    report.contactErased = (await erasePart(tx, contactIds, "contact", "request", now)).length;
    await recordAuditEvent(tx, {
      action: "customer.erasure_requested",
      actor,
      branchId: context.staff.branch.id,
      details: {
        ...customerOf(input),
        tokens: rows.length,
        reason: input.reason,
        contactErased: report.contactErased,
        identityErased: report.identityErased,
        held: report.held.length,
        identityKeptForAml: report.identityKept.length,
      },
      requestId: context.requestId,
    });
  });
  return report;
}

function refusalReason(tokens: number, report: ErasureOnRequestReport): string {
  if (tokens === 0) return "No token in your branches holds this ID number: there is nothing to erase.";
  const parts: string[] = [];
  if (report.held.length > 0) parts.push(`${report.held.length} token(s) are under a legal hold (${[...new Set(report.held.map((entry) => entry.reason))].join("; ")}): nothing is erased until it is released.`);
  if (report.identityKept.length > 0) {
    const latest = report.identityKept.map((entry) => entry.until).sort().at(-1)!;
    parts.push(
      `The Anti-Money Laundering Act 2020 (Act 1044) requires the identity record of a verification to be kept at least ${AML_MINIMUM_YEARS} years: it can be erased from ${formatErasureDay(latest)}. The contact data is already erased.`,
    );
  }
  if (parts.length === 0) parts.push("Everything this record could erase is erased already.");
  return `Nothing can be erased now. ${parts.join(" ")}`;
}

/**
 * Head office: a member whose scope is every branch. A hold placed by head office (an inquiry a
 * branch may not even know of) is released by head office only; a branch's own hold by either.
 */
const isHeadOffice = (context: Context) => context.scope.kind === "all";

export const HEAD_OFFICE_HOLD_MESSAGE = "This legal hold was placed by head office: only head office can release it.";

/** Places a legal hold (supervisor, with reason, audited): the token is exempt from any erasure until released. */
export async function placeLegalHold(db: Database, context: Context, input: z.output<typeof legalHoldSchema>): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ branchId: tokenRequests.branchId, legalHoldAt: tokenRequests.legalHoldAt }).from(tokenRequests).where(eq(tokenRequests.id, input.tokenRequestId)).for("update");
    if (!row) throw new AppError("NOT_FOUND", `token request ${input.tokenRequestId} not found`);
    assertInBranchScope(context.scope, row.branchId, "token request");
    if (row.legalHoldAt) throw new AppError("CONFLICT", "legal hold already placed", { userMessage: "This token is already under a legal hold." });
    const byHeadOffice = isHeadOffice(context);
    await tx
      .update(tokenRequests)
      .set({ legalHoldAt: new Date(), legalHoldByUserId: context.staff.userId, legalHoldReason: input.reason, legalHoldByHeadOffice: byHeadOffice })
      .where(eq(tokenRequests.id, input.tokenRequestId));
    await recordAuditEvent(tx, {
      action: "token.legal_hold_place",
      actor: { userId: context.staff.userId, username: context.staff.username },
      subject: { type: "token_request", id: input.tokenRequestId },
      branchId: row.branchId,
      details: { reason: input.reason, byHeadOffice },
      requestId: context.requestId,
    });
  });
}

/**
 * Releases a legal hold (with reason, audited): the retention clocks apply again at the next run.
 * Head office's hold is released by head office only; a branch supervisor's attempt is refused
 * plainly and the refusal audited (someone tried to lift a hold head office placed).
 */
export async function releaseLegalHold(db: Database, context: Context, input: z.output<typeof legalHoldSchema>): Promise<void> {
  const actor = { userId: context.staff.userId, username: context.staff.username };
  const refused = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        branchId: tokenRequests.branchId,
        legalHoldAt: tokenRequests.legalHoldAt,
        legalHoldReason: tokenRequests.legalHoldReason,
        legalHoldByHeadOffice: tokenRequests.legalHoldByHeadOffice,
      })
      .from(tokenRequests)
      .where(eq(tokenRequests.id, input.tokenRequestId))
      .for("update");
    if (!row) throw new AppError("NOT_FOUND", `token request ${input.tokenRequestId} not found`);
    assertInBranchScope(context.scope, row.branchId, "token request");
    if (!row.legalHoldAt) throw new AppError("CONFLICT", "no legal hold to release", { userMessage: "This token is not under a legal hold." });
    if (row.legalHoldByHeadOffice && !isHeadOffice(context)) {
      await recordAuditEvent(tx, {
        action: "token.legal_hold_release_refused",
        actor,
        subject: { type: "token_request", id: input.tokenRequestId },
        branchId: row.branchId,
        details: { reason: input.reason, why: "placed by head office", heldFor: row.legalHoldReason },
        requestId: context.requestId,
      });
      return true;
    }
    await tx
      .update(tokenRequests)
      .set({ legalHoldAt: null, legalHoldByUserId: null, legalHoldReason: null, legalHoldByHeadOffice: false })
      .where(eq(tokenRequests.id, input.tokenRequestId));
    await recordAuditEvent(tx, {
      action: "token.legal_hold_release",
      actor,
      subject: { type: "token_request", id: input.tokenRequestId },
      branchId: row.branchId,
      details: { reason: input.reason, heldSince: row.legalHoldAt.toISOString(), heldFor: row.legalHoldReason, byHeadOffice: row.legalHoldByHeadOffice },
      requestId: context.requestId,
    });
    return false;
  });
  // Thrown after the transaction, so the refusal's audit event is kept.
  if (refused) throw new AppError("FORBIDDEN", "a branch supervisor may not release head office's legal hold", { userMessage: HEAD_OFFICE_HOLD_MESSAGE });
}

export type { CustomerRecord, CustomerRecordEntry, ErasureOnRequestReport, HeldDatum } from "./dto";
