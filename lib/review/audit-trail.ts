import "server-only";
import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Staff } from "@/lib/auth/types";
import { auditRoutingCondition, type CaseViewer } from "@/lib/compliance/case-routing";
import { recordAuditEvent } from "@/lib/audit";
import { auditActionLabel } from "@/lib/audit/actions";
import type { Database } from "@/lib/db/types";
import type { DbExecutor } from "@/lib/db/types";
import { auditEvents, authUsers, branches, tokenRequests } from "@/lib/db/schema";
import { reviewAuditActions } from "./audit-actions";
import { auditDetailReferences, type AuditNames } from "./audit-details";
import { csvResponse, csvWebStream, type CsvColumn } from "./csv";
import { formatIsoDateTime } from "@/lib/bank-time";
import { uuidSchema } from "@/lib/validation/query-values";
import { describeAuditEvent } from "./sentences";
import { hasEmailSql, sendSmsSql } from "./token-columns";
import type { TokenKind } from "@/lib/domain/token-kinds";
import { bankDayOf, bankDayRange } from "@/lib/bank-time";

/**
 * The audit trail, filtered by staff member, action and days, and its CSV export — read-only,
 * streamed in keyset pages like the token export. Every query here (rows, the count, the list of
 * actions for the filter) goes through `auditRoutingCondition`: the reader's branch scope, and a row
 * about a risk case only for those the case is routed to — never its subject (ADR 0050). Whatever
 * the filter says, it can only narrow that.
 */
export type AuditTrailFilter = { staffUserId?: string; action?: string; from?: string; to?: string };

/** Who reads the trail: the signed-in staff member (their role, branch and user id route the rows). */
export type AuditReader = CaseViewer;

export function auditConditions(reader: AuditReader, filter: AuditTrailFilter): SQL {
  const range = filter.from || filter.to ? bankDayRange(filter.from ?? "2000-01-01", filter.to ?? "2999-12-31") : null;
  return and(
    auditRoutingCondition(reader),
    filter.staffUserId
      ? or(eq(auditEvents.actorUserId, filter.staffUserId), and(eq(auditEvents.subjectType, "staff"), eq(auditEvents.subjectId, filter.staffUserId)))
      : undefined,
    filter.action ? eq(auditEvents.action, filter.action) : undefined,
    range && filter.from ? gte(auditEvents.at, range.start) : undefined,
    range && filter.to ? lt(auditEvents.at, range.end) : undefined,
  )!;
}

export type AuditTrailPage = { events: AuditExportRow[]; total: number; pageCount: number; names: AuditNames };

/** One page of the trail, newest first (the audit page), with the same filters as the export. */
export async function listAuditTrailPage(db: Database, reader: AuditReader, filter: AuditTrailFilter, page: number, pageSize: number): Promise<AuditTrailPage> {
  const where = auditConditions(reader, filter);
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
  return { events, total, pageCount: Math.max(1, Math.ceil(total / pageSize)), names: await loadAuditNames(db, events) };
}

/**
 * The names behind the ids and usernames a page's events hold in their details (an approval's
 * account, a filter's branch and teller, a warning's tokens): three small queries per page, so
 * the trail shows "Kwame Asante" where the event recorded a user id.
 */
export async function loadAuditNames(db: Database, events: readonly { details: Record<string, unknown> }[]): Promise<AuditNames> {
  const ids = new Set<string>();
  const usernames = new Set<string>();
  for (const event of events) {
    const found = auditDetailReferences(event.details);
    found.ids.forEach((id) => ids.add(id));
    found.usernames.forEach((username) => usernames.add(username));
  }
  // A staff id need not be a uuid (demo tellers' are "demo-<username>"), and PostgreSQL refuses a
  // token_requests.id that is not one: the whole query, and the page with it.
  const tokenIds = [...ids].filter((id) => uuidSchema.safeParse(id).success);
  const [staffRows, branchRows, tokenRows] = await Promise.all([
    ids.size + usernames.size > 0
      ? db
          .select({ id: authUsers.id, name: authUsers.name, username: authUsers.username })
          .from(authUsers)
          .where(or(ids.size > 0 ? inArray(authUsers.id, [...ids]) : undefined, usernames.size > 0 ? inArray(authUsers.username, [...usernames]) : undefined))
      : Promise.resolve([]),
    // Every branch: a bank has tens, and staff events name them by code.
    db.select({ id: branches.id, code: branches.code, name: branches.name }).from(branches),
    tokenIds.length > 0 ? db.select({ id: tokenRequests.id, token: tokenRequests.token }).from(tokenRequests).where(inArray(tokenRequests.id, tokenIds)) : Promise.resolve([]),
  ]);
  const names: AuditNames = { staff: {}, staffByUsername: {}, branches: {}, branchesByCode: {}, tokens: {} };
  for (const row of staffRows) {
    names.staff[row.id] = { name: row.name, username: row.username ?? "" };
    if (row.username) names.staffByUsername[row.username] = row.name;
  }
  for (const row of branchRows) {
    names.branches[row.id] = row.name;
    names.branchesByCode[row.code] = row.name;
  }
  for (const row of tokenRows) names.tokens[row.id] = row.token;
  return names;
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
  subjectKind: tokenRequests.kind,
  subjectSendSms: sendSmsSql,
  subjectHasEmail: hasEmailSql,
  subjectType: auditEvents.subjectType,
  subjectId: auditEvents.subjectId,
  branchCode: branches.code,
  branchName: branches.name,
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
  subjectKind: TokenKind | null;
  subjectSendSms: boolean | null;
  subjectHasEmail: boolean | null;
  subjectType: string | null;
  subjectId: string | null;
  branchCode: string | null;
  branchName: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
};

const auditColumns: CsvColumn<AuditExportRow>[] = [
  { header: "When (Accra time)", value: (row) => formatIsoDateTime(row.at) },
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

export async function* iterateAuditEvents(db: Database, reader: AuditReader, filter: AuditTrailFilter, batchSize = 1_000): AsyncGenerator<AuditExportRow> {
  const where = auditConditions(reader, filter);
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

export async function exportAuditTrail(db: Database, context: { staff: Staff; requestId: string }, filter: AuditTrailFilter): Promise<Response> {
  // Exporting the trail is itself an event of the trail.
  await recordAuditEvent(db, {
    action: reviewAuditActions.auditExported,
    actor: { userId: context.staff.userId, username: context.staff.username },
    branchId: context.staff.branch.id,
    details: { filter },
    requestId: context.requestId,
  });
  return csvResponse(csvWebStream(auditColumns, iterateAuditEvents(db, context.staff, filter)), `veridesk-audit-${bankDayOf(new Date())}.csv`);
}

/** The actions present in the rows the reader may see (for the filter): an action only others' rows hold is not offered. */
export async function listAuditActions(db: DbExecutor, reader: AuditReader): Promise<string[]> {
  const rows = await db
    .selectDistinct({ action: auditEvents.action })
    .from(auditEvents)
    .where(auditRoutingCondition(reader))
    .orderBy(auditEvents.action);
  return rows.map((row) => row.action);
}
