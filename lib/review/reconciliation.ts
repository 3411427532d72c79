import "server-only";
import { and, asc, desc, eq, gte, lt, min } from "drizzle-orm";
import type { z } from "zod";
import { assertInBranchScope, type BranchScope } from "@/lib/auth/branch-scope";
import type { Staff } from "@/lib/auth/types";
import { recordAuditEvent } from "@/lib/audit";
import { withoutCaseRows } from "@/lib/compliance/case-routing";
import type { Database } from "@/lib/db/types";
import { auditEvents, authUsers, branches } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { reviewAuditActions } from "./audit-actions";
import { FigureAccumulator, partialFigureColumns, type FigureCounts, type PartialFigureRow } from "./figures";
import type { ReconciliationQuery } from "./filters";
import type { sheetPrintedSchema, signOffSchema } from "./sign-off-schema";
import { FUTURE_SHEET_MESSAGE, signOffRefusal } from "./sign-off";
import { bankDayOf, bankDayRange } from "@/lib/bank-time";
import { stateCondition, tokenRequests } from "./token-columns";
import { listReviewTokensWhere, type ReviewTokenRow } from "./token-list";

/**
 * End-of-day reconciliation of one branch (ADR 0010): per teller, tokens issued against tokens
 * finished, still open and of unknown outcome, and the list of what needs following up — tokens
 * with no known outcome, tokens still open, and tokens the service called invalid. The branch
 * supervisor prints it and signs it off.
 */

export type ReconciliationTeller = FigureCounts & { tellerId: string; tellerName: string; finished: number };

export { reconciliationStateColumns } from "./reconciliation-columns";

/** The latest on-screen sign-off of a branch's day, read back from the audit trail. */
export type ReconciliationSignOff = {
  signedByName: string;
  signedAt: string;
  note: string | null;
  /** The request count the signer saw: when it differs from the sheet's now, tokens changed after signing. */
  requests: number | null;
};

/** The audit subject of a branch's day (the print and the sign-off both name it). */
export function branchDaySubject(branchId: string, day: string): { type: "branch_day"; id: string } {
  return { type: "branch_day", id: `${branchId}:${day}` };
}

export type ReconciliationSheet = {
  day: string;
  branch: { id: string; code: string; name: string };
  generatedAt: string;
  tellers: ReconciliationTeller[];
  total: FigureCounts & { finished: number };
  followUp: ReviewTokenRow[];
  /** The follow-up list is cut at this many rows; the sheet says so. */
  followUpLimit: number;
  signOff: ReconciliationSignOff | null;
  /** Why this day may not be signed off (not ended, before the branch's first token), or null. */
  signOffRefusal: string | null;
};

export const followUpStates = ["outcome_unknown", "waiting", "in_progress", "invalid"] as const;
const followUpLimit = 200;

export async function buildReconciliation(db: Database, scope: BranchScope, query: ReconciliationQuery & { branch: string }): Promise<ReconciliationSheet> {
  assertInBranchScope(scope, query.branch, "branch");
  const [branch] = await db.select({ id: branches.id, code: branches.code, name: branches.name }).from(branches).where(eq(branches.id, query.branch));
  if (!branch) throw new AppError("NOT_FOUND", `branch ${query.branch} not found`);
  const { start, end } = bankDayRange(query.day, query.day);
  const dayCondition = and(eq(tokenRequests.branchId, branch.id), gte(tokenRequests.createdAt, start), lt(tokenRequests.createdAt, end));

  const rows = (await db
    .select({ tellerId: tokenRequests.issuedByUserId, tellerName: authUsers.name, ...partialFigureColumns() })
    .from(tokenRequests)
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(dayCondition)
    .groupBy(tokenRequests.issuedByUserId, authUsers.name, tokenRequests.liveState, tokenRequests.outcome)) as (PartialFigureRow & { tellerId: string; tellerName: string })[];

  const withFinished = (counts: FigureCounts) => ({ ...counts, finished: counts.successful + counts.failed + counts.expired + counts.invalid });
  const total = new FigureAccumulator();
  const byTeller = new Map<string, { tellerName: string; accumulator: FigureAccumulator }>();
  for (const row of rows) {
    total.add(row);
    let teller = byTeller.get(row.tellerId);
    if (!teller) byTeller.set(row.tellerId, (teller = { tellerName: row.tellerName, accumulator: new FigureAccumulator() }));
    teller.accumulator.add(row);
  }
  const tellers = [...byTeller.entries()]
    .map(([tellerId, teller]) => ({ tellerId, tellerName: teller.tellerName, ...withFinished(teller.accumulator.result()) }))
    .sort((a, b) => a.tellerName.localeCompare(b.tellerName));

  const followUp = await listReviewTokensWhere(
    db,
    and(dayCondition, stateCondition(followUpStates)),
    [asc(tokenRequests.createdAt)],
    followUpLimit,
  );

  return {
    day: query.day,
    branch,
    generatedAt: new Date().toISOString(),
    tellers,
    total: withFinished(total.result()),
    followUp,
    followUpLimit,
    signOff: await latestSignOff(db, branch.id, query.day),
    signOffRefusal: signOffRefusal(query.day, { now: new Date(), firstTokenAt: await firstTokenAt(db, branch.id) }),
  };
}

async function firstTokenAt(db: Database, branchId: string): Promise<Date | null> {
  const [first] = await db.select({ at: min(tokenRequests.createdAt) }).from(tokenRequests).where(eq(tokenRequests.branchId, branchId));
  return first?.at ?? null;
}

async function latestSignOff(db: Database, branchId: string, day: string): Promise<ReconciliationSignOff | null> {
  const subject = branchDaySubject(branchId, day);
  const [row] = await db
    .select({ at: auditEvents.at, details: auditEvents.details, name: authUsers.name, label: auditEvents.actorLabel })
    .from(auditEvents)
    .leftJoin(authUsers, eq(authUsers.id, auditEvents.actorUserId))
    .where(and(eq(auditEvents.action, reviewAuditActions.reconciliationSignedOff), eq(auditEvents.subjectType, subject.type), eq(auditEvents.subjectId, subject.id), withoutCaseRows()))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  if (!row) return null;
  return {
    signedByName: row.name ?? row.label ?? "—",
    signedAt: row.at.toISOString(),
    note: typeof row.details.note === "string" && row.details.note !== "" ? row.details.note : null,
    requests: typeof row.details.requests === "number" ? row.details.requests : null,
  };
}

/**
 * Signs a branch's day off on screen: the audit trail is the record (who, when, the figures they
 * saw, their note). Only a day that has ended and is not before the branch's first token
 * (sign-off.ts); the figures are recounted here, never taken from the browser; tokens left to
 * follow up need a note saying what was done about them.
 */
export async function signOffBranchDay(
  db: Database,
  context: { staff: Staff; scope: BranchScope; requestId: string },
  input: z.output<typeof signOffSchema>,
  now: Date = new Date(),
): Promise<{ signedByName: string; signedAt: string }> {
  const sheet = await buildReconciliation(db, context.scope, { day: input.day, branch: input.branchId });
  const refusal = signOffRefusal(input.day, { now, firstTokenAt: await firstTokenAt(db, sheet.branch.id) });
  if (refusal) throw new AppError("VALIDATION", `sign-off of ${input.day} refused: ${refusal}`, { userMessage: refusal });
  const followUp = sheet.followUp.length;
  if (followUp > 0 && input.note === "") {
    throw new AppError("VALIDATION", "sign-off without a note while tokens are left to follow up", {
      fieldErrors: { note: [`${followUp} token${followUp === 1 ? " is" : "s are"} listed to follow up: say what was done about ${followUp === 1 ? "it" : "them"}.`] },
    });
  }
  const { total } = sheet;
  await recordAuditEvent(db, {
    action: reviewAuditActions.reconciliationSignedOff,
    actor: { userId: context.staff.userId, username: context.staff.username },
    subject: branchDaySubject(sheet.branch.id, input.day),
    branchId: sheet.branch.id,
    details: {
      day: input.day,
      requests: total.requests,
      successful: total.successful,
      failed: total.failed,
      expired: total.expired,
      invalid: total.invalid,
      open: total.open,
      outcomeUnknown: total.outcomeUnknown,
      notIssued: total.notIssued,
      followUp,
      note: input.note,
    },
    requestId: context.requestId,
  });
  return { signedByName: context.staff.name, signedAt: now.toISOString() };
}

/**
 * Records that a branch's day sheet was printed (the print button, before the browser's dialog):
 * a day that has begun, of a branch in the scope that exists.
 */
export async function recordSheetPrinted(
  db: Database,
  context: { staff: Staff; scope: BranchScope; requestId: string },
  input: z.output<typeof sheetPrintedSchema>,
  now: Date = new Date(),
): Promise<void> {
  assertInBranchScope(context.scope, input.branchId, "branch");
  if (input.day > bankDayOf(now)) throw new AppError("VALIDATION", `sheet of ${input.day} printed before the day`, { userMessage: FUTURE_SHEET_MESSAGE });
  const [branch] = await db.select({ id: branches.id }).from(branches).where(eq(branches.id, input.branchId));
  if (!branch) throw new AppError("NOT_FOUND", `branch ${input.branchId} not found`);
  await recordAuditEvent(db, {
    action: reviewAuditActions.reconciliationPrinted,
    actor: { userId: context.staff.userId, username: context.staff.username },
    subject: branchDaySubject(branch.id, input.day),
    branchId: branch.id,
    details: { day: input.day },
    requestId: context.requestId,
  });
}
