import "server-only";
import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { apiIdempotency } from "@/lib/db/schema";

/**
 * `Idempotency-Key` as the IETF draft (httpapi-idempotency-key-header) describes it, stored in the
 * database so every instance answers alike: the first request claims the key (`in_flight`), its
 * answer is stored with it; the same key with the same body gets that answer again, with another
 * body a 422, while the first is still running a 409. Keys are per integration (a rolled key
 * replays its predecessor's answers) and kept a day. Beneath this, the token's own row is keyed by
 * a value derived from the same key (ADR 0005): even a claim that expired with a dead process
 * never makes a second call to the service.
 */

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
/** A claim this old belongs to a process that died mid-request: a retry may take it over. */
export const IDEMPOTENCY_CLAIM_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type IdempotencyClaim =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: unknown }
  | { kind: "mismatch" }
  | { kind: "in_flight" };

export function isValidIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** The request's fingerprint: method, path and the body's canonical JSON (key order ignored). */
export function requestHashOf(method: string, path: string, body: unknown): string {
  return createHash("sha256").update(`${method} ${path}\n${canonicalJson(body)}`).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The token row's idempotency key (a uuid) for an integration's Idempotency-Key. */
export function tokenIdempotencyKeyOf(serviceUserId: string, idempotencyKey: string): string {
  const hex = createHash("sha256").update(`api:${serviceUserId}:${idempotencyKey}`).digest("hex");
  // Shaped as a version-8 (custom) uuid.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function claimIdempotencyKey(db: DbExecutor, serviceUserId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyClaim> {
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_CLAIM_MS);
  const inserted = await db
    .insert(apiIdempotency)
    .values({ serviceUserId, idempotencyKey: key, requestHash, status: "in_flight", createdAt: now, lockedUntil })
    .onConflictDoNothing()
    .returning({ key: apiIdempotency.idempotencyKey });
  if (inserted.length > 0) return { kind: "claimed" };

  const where = and(eq(apiIdempotency.serviceUserId, serviceUserId), eq(apiIdempotency.idempotencyKey, key));
  // A day-old answer is forgotten: the key starts afresh (one conditional UPDATE, so one winner).
  const restarted = await db
    .update(apiIdempotency)
    .set({ requestHash, status: "in_flight", responseStatus: null, responseBody: null, createdAt: now, lockedUntil })
    .where(and(where, lt(apiIdempotency.createdAt, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS))))
    .returning({ key: apiIdempotency.idempotencyKey });
  if (restarted.length > 0) return { kind: "claimed" };

  const [row] = await db.select().from(apiIdempotency).where(where);
  if (!row) return claimIdempotencyKey(db, serviceUserId, key, requestHash, now);
  if (row.requestHash !== requestHash) return { kind: "mismatch" };
  if (row.status === "done") return { kind: "replay", status: row.responseStatus ?? 500, body: row.responseBody };
  // Still in flight: only a claim whose holder died may be taken over.
  const [taken] = await db
    .update(apiIdempotency)
    .set({ lockedUntil })
    .where(and(where, eq(apiIdempotency.status, "in_flight"), lt(apiIdempotency.lockedUntil, now)))
    .returning({ key: apiIdempotency.idempotencyKey });
  return taken ? { kind: "claimed" } : { kind: "in_flight" };
}

export async function storeIdempotentAnswer(db: DbExecutor, serviceUserId: string, key: string, status: number, body: unknown): Promise<void> {
  await db
    .update(apiIdempotency)
    .set({ status: "done", responseStatus: status, responseBody: body })
    .where(and(eq(apiIdempotency.serviceUserId, serviceUserId), eq(apiIdempotency.idempotencyKey, key)));
}

/** An unexpected failure: the claim is given back so a retry runs (the token row still guards the call). */
export async function releaseIdempotencyKey(db: DbExecutor, serviceUserId: string, key: string): Promise<void> {
  await db
    .delete(apiIdempotency)
    .where(and(eq(apiIdempotency.serviceUserId, serviceUserId), eq(apiIdempotency.idempotencyKey, key), eq(apiIdempotency.status, "in_flight")));
}

/** Answers older than the retention go: the rate limiter calls it at each key's first request of a minute. */
export async function deleteOldIdempotentAnswers(db: DbExecutor, now: Date): Promise<void> {
  await db.delete(apiIdempotency).where(lt(apiIdempotency.createdAt, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)));
}
