import "server-only";
import type { DbExecutor } from "@/lib/db/types";
import { auditEvents } from "@/lib/db/schema";
import { nudge } from "@/lib/nudges";
import type { KnownAuditAction } from "./actions";

/**
 * The audit trail: append-only. This module has no update or delete — and the database refuses
 * both anyway (migration 0001). Pass the transaction of the change being audited as `db` so the
 * change and its record commit together or not at all.
 */

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

/** Writes one event with `db`: the transaction of the change being audited, or the database. */
export async function recordAuditEvent(db: DbExecutor, event: AuditEventInput): Promise<void> {
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
  // The risk rules read audit events (who read ID numbers): their next pass comes at its usual pace (ADR 0047).
  nudge("risk");
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
