import "server-only";
import { and, count, desc, eq, or, type SQL } from "drizzle-orm";
import { branchScopeCondition, type BranchScope } from "@/lib/auth/branch-scope";
import { getDb, type Database } from "@/lib/db/client";
import { auditEvents, branches } from "@/lib/db/schema";
import type { KnownAuditAction } from "./actions";

/**
 * The audit trail: append-only. This module has no update or delete — and the database refuses
 * both anyway (migration 0001). Pass the transaction of the change being audited as `executor`
 * so the change and its record commit together or not at all.
 */

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type DbExecutor = Database | Transaction;

export type AuditEventInput = {
  action: KnownAuditAction | (string & {});
  /** Who did it; null for the system or an unknown person (a failed sign-in). */
  actor: { userId: string; username: string } | null;
  /** For events without a known actor: what they typed as username, for example. */
  actorLabel?: string;
  subject?: { type: string; id: string };
  /** The branch the event belongs to; scopes who may read it. */
  branchId?: string | null;
  /** What changed: `{ before: {...}, after: {...} }` for changes, a reason for refusals. */
  details?: Record<string, unknown>;
  requestId?: string;
};

export async function recordAuditEvent(event: AuditEventInput, executor?: DbExecutor): Promise<void> {
  const db = executor ?? (await getDb());
  await db.insert(auditEvents).values({
    action: event.action,
    actorUserId: event.actor?.userId ?? null,
    actorLabel: withoutNul(event.actor?.username ?? event.actorLabel?.slice(0, 100) ?? null),
    subjectType: event.subject?.type ?? null,
    subjectId: withoutNul(event.subject?.id ?? null),
    branchId: event.branchId ?? null,
    details: withoutNulDeep(event.details ?? {}) as Record<string, unknown>,
    requestId: event.requestId ?? null,
  });
}

/**
 * PostgreSQL refuses `\0` in text and jsonb: an audit event quoting hostile input must still be
 * written (a refusal that cannot be recorded would fail the request), so `\0` becomes U+FFFD.
 */
function withoutNul(text: string | null): string | null {
  return text === null ? null : text.replaceAll("\u0000", "\uFFFD");
}

function withoutNulDeep(value: unknown): unknown {
  if (typeof value === "string") return withoutNul(value);
  if (Array.isArray(value)) return value.map(withoutNulDeep);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [withoutNul(key), withoutNulDeep(inner)]));
  }
  return value;
}

export type AuditEventView = {
  id: number;
  at: Date;
  action: string;
  actorUserId: string | null;
  actorLabel: string | null;
  subjectType: string | null;
  subjectId: string | null;
  branch: { code: string; name: string } | null;
  details: Record<string, unknown>;
  requestId: string | null;
};

export type AuditFilter = {
  scope: BranchScope;
  /** Events by this staff member, or about their account. */
  staffUserId?: string;
  action?: string;
  /** 1-based. */
  page: number;
  pageSize: number;
};

export async function listAuditEvents(filter: AuditFilter): Promise<{ events: AuditEventView[]; total: number; pageCount: number }> {
  const db = await getDb();
  const conditions: (SQL | undefined)[] = [
    branchScopeCondition(filter.scope, auditEvents.branchId),
    filter.staffUserId
      ? or(
          eq(auditEvents.actorUserId, filter.staffUserId),
          and(eq(auditEvents.subjectType, "staff"), eq(auditEvents.subjectId, filter.staffUserId)),
        )
      : undefined,
    filter.action ? eq(auditEvents.action, filter.action) : undefined,
  ];
  const where = and(...conditions);
  const [totals] = await db.select({ total: count() }).from(auditEvents).where(where);
  const total = totals?.total ?? 0;
  const rows = await db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      action: auditEvents.action,
      actorUserId: auditEvents.actorUserId,
      actorLabel: auditEvents.actorLabel,
      subjectType: auditEvents.subjectType,
      subjectId: auditEvents.subjectId,
      branchCode: branches.code,
      branchName: branches.name,
      details: auditEvents.details,
      requestId: auditEvents.requestId,
    })
    .from(auditEvents)
    .leftJoin(branches, eq(branches.id, auditEvents.branchId))
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  return {
    total,
    pageCount: Math.max(1, Math.ceil(total / filter.pageSize)),
    events: rows.map(({ branchCode, branchName, ...row }) => ({
      ...row,
      branch: branchCode && branchName ? { code: branchCode, name: branchName } : null,
    })),
  };
}

/** The actions present in the trail (for the filter), within the scope. */
export async function listAuditActions(scope: BranchScope): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .selectDistinct({ action: auditEvents.action })
    .from(auditEvents)
    .where(branchScopeCondition(scope, auditEvents.branchId))
    .orderBy(auditEvents.action);
  return rows.map((row) => row.action);
}
