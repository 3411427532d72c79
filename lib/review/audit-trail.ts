import "server-only";
import { and, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { branchScopeCondition, type BranchScope } from "@/lib/auth/branch-scope";
import type { Staff } from "@/lib/auth/types";
import { recordAuditEvent } from "@/lib/audit";
import { auditActionLabel } from "@/lib/audit/actions";
import type { Database } from "@/lib/db/client";
import { auditEvents, authUsers, branches, tokenRequests } from "@/lib/db/schema";
import { reviewAuditActions } from "./audit-actions";
import { csvResponse, csvWebStream, type CsvColumn } from "./csv";
import { formatBankDateTime } from "./format";
import { describeAuditEvent } from "./sentences";
import { bankDayOf, bankDayRange } from "./time";

/**
 * The audit trail, filtered by staff member, action and days, and its CSV export — read-only, in
 * the reader's branch scope, streamed in keyset pages like the token export.
 */
export type AuditTrailFilter = { staffUserId?: string; action?: string; from?: string; to?: string };

export function auditConditions(scope: BranchScope, filter: AuditTrailFilter): SQL | undefined {
  const range = filter.from || filter.to ? bankDayRange(filter.from ?? "2000-01-01", filter.to ?? "2999-12-31") : null;
  return and(
    branchScopeCondition(scope, auditEvents.branchId),
    filter.staffUserId
      ? or(eq(auditEvents.actorUserId, filter.staffUserId), and(eq(auditEvents.subjectType, "staff"), eq(auditEvents.subjectId, filter.staffUserId)))
      : undefined,
    filter.action ? eq(auditEvents.action, filter.action) : undefined,
    range && filter.from ? gte(auditEvents.at, range.start) : undefined,
    range && filter.to ? lt(auditEvents.at, range.end) : undefined,
  );
}

export type AuditTrailPage = { events: AuditExportRow[]; total: number; pageCount: number };

/** One page of the trail, newest first (the audit page), with the same filters as the export. */
export async function listAuditTrailPage(db: Database, scope: BranchScope, filter: AuditTrailFilter, page: number, pageSize: number): Promise<AuditTrailPage> {
  const where = auditConditions(scope, filter);
  const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(auditEvents).where(where);
  const events = await db
    .select(auditRowColumns)
    .from(auditEvents)
    .leftJoin(branches, eq(branches.id, auditEvents.branchId))
    .leftJoin(actors, eq(actors.id, auditEvents.actorUserId))
    .leftJoin(subjectStaff, and(eq(auditEvents.subjectType, "staff"), eq(subjectStaff.id, auditEvents.subjectId)))
    .leftJoin(tokenRequests, and(eq(auditEvents.subjectType, "token_request"), eq(sql`${tokenRequests.id}::text`, auditEvents.subjectId)))
    .where(where)
    .orderBy(desc(auditEvents.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const total = Number(counted?.total ?? 0);
  return { events, total, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

// Names, not usernames, in the trail's sentences: the actor's and a staff subject's account.
const actors = alias(authUsers, "audit_actor");
const subjectStaff = alias(authUsers, "audit_subject_staff");

const auditRowColumns = {
  id: auditEvents.id,
  at: auditEvents.at,
  action: auditEvents.action,
  actorLabel: auditEvents.actorLabel,
  actorName: actors.name,
  subjectStaffName: subjectStaff.name,
  subjectToken: tokenRequests.token,
  subjectType: auditEvents.subjectType,
  subjectId: auditEvents.subjectId,
  branchCode: branches.code,
  details: auditEvents.details,
  requestId: auditEvents.requestId,
};

export type AuditExportRow = {
  id: number;
  at: Date;
  action: string;
  actorLabel: string | null;
  actorName: string | null;
  subjectStaffName: string | null;
  subjectToken: string | null;
  subjectType: string | null;
  subjectId: string | null;
  branchCode: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
};

const auditColumns: CsvColumn<AuditExportRow>[] = [
  { header: "When (Accra time)", value: (row) => formatBankDateTime(row.at) },
  { header: "Who", value: (row) => row.actorLabel },
  { header: "Staff name", value: (row) => row.actorName },
  { header: "Event", value: (row) => auditActionLabel(row.action) },
  { header: "What happened", value: (row) => describeAuditEvent(row).text },
  { header: "Event code", value: (row) => row.action },
  { header: "Subject", value: (row) => (row.subjectType ? `${row.subjectType}:${row.subjectId ?? ""}` : null) },
  { header: "Branch", value: (row) => row.branchCode },
  { header: "Details", value: (row) => (Object.keys(row.details).length ? JSON.stringify(row.details) : null) },
  { header: "Request id", value: (row) => row.requestId },
];

export async function* iterateAuditEvents(db: Database, scope: BranchScope, filter: AuditTrailFilter, batchSize = 1_000): AsyncGenerator<AuditExportRow> {
  const where = auditConditions(scope, filter);
  let beforeId: number | null = null;
  for (;;) {
    // The identity id grows with time: paging on it alone is exact and cheap.
    const rows: AuditExportRow[] = await db
      .select(auditRowColumns)
      .from(auditEvents)
      .leftJoin(branches, eq(branches.id, auditEvents.branchId))
      .leftJoin(actors, eq(actors.id, auditEvents.actorUserId))
      .leftJoin(subjectStaff, and(eq(auditEvents.subjectType, "staff"), eq(subjectStaff.id, auditEvents.subjectId)))
      .leftJoin(tokenRequests, and(eq(auditEvents.subjectType, "token_request"), eq(sql`${tokenRequests.id}::text`, auditEvents.subjectId)))
      .where(and(where, beforeId === null ? undefined : sql`${auditEvents.id} < ${beforeId}`))
      .orderBy(desc(auditEvents.id))
      .limit(batchSize);
    yield* rows;
    if (rows.length < batchSize) return;
    beforeId = rows.at(-1)!.id;
  }
}

export async function exportAuditTrail(db: Database, context: { staff: Staff; scope: BranchScope; requestId: string }, filter: AuditTrailFilter): Promise<Response> {
  // Exporting the trail is itself an event of the trail.
  await recordAuditEvent({
    action: reviewAuditActions.auditExported,
    actor: { userId: context.staff.userId, username: context.staff.username },
    branchId: context.staff.branch.id,
    details: { filter },
    requestId: context.requestId,
  }, db);
  return csvResponse(csvWebStream(auditColumns, iterateAuditEvents(db, context.scope, filter)), `veridesk-audit-${bankDayOf(new Date())}.csv`);
}
