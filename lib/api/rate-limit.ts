import "server-only";
import { and, eq, lt, sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { apiRateWindows } from "@/lib/db/schema";
import { deleteOldIdempotentAnswers } from "./idempotency";

/**
 * The per-key limit: requests per minute, counted in the database by one upsert per request (a
 * fixed one-minute window), so two instances share one count and a burst across them gets no
 * more than the limit. Each token costs the bank an SMS; a runaway integration stops here.
 */

export const RATE_WINDOW_MS = 60_000;

export type RateDecision = { isAllowed: true; remaining: number } | { isAllowed: false; retryAfterSeconds: number };

export async function countApiRequest(db: DbExecutor, keyId: string, limitPerMinute: number, now: Date): Promise<RateDecision> {
  const windowStartedAt = new Date(Math.floor(now.getTime() / RATE_WINDOW_MS) * RATE_WINDOW_MS);
  const [row] = await db
    .insert(apiRateWindows)
    .values({ apiKeyId: keyId, windowStartedAt, requests: 1 })
    .onConflictDoUpdate({ target: [apiRateWindows.apiKeyId, apiRateWindows.windowStartedAt], set: { requests: sql`${apiRateWindows.requests} + 1` } })
    .returning({ requests: apiRateWindows.requests });
  const requests = row?.requests ?? 1;
  // The key's first request of a window clears its older windows: the table stays one row per key.
  // It is also when stored answers older than a day go (one indexed delete, for every key): the
  // answers hold tokens, and api_idempotency keeps no more than the day ADR 0044 promises.
  if (requests === 1) {
    await db.delete(apiRateWindows).where(and(eq(apiRateWindows.apiKeyId, keyId), lt(apiRateWindows.windowStartedAt, windowStartedAt)));
    await deleteOldIdempotentAnswers(db, now);
  }
  if (requests <= limitPerMinute) return { isAllowed: true, remaining: limitPerMinute - requests };
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStartedAt.getTime() + RATE_WINDOW_MS - now.getTime()) / 1000));
  return { isAllowed: false, retryAfterSeconds };
}
