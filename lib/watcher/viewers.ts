import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import type { Database } from "@/lib/db/types";
import { tokenRequests } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";

/**
 * Which open tokens someone is looking at (ADR 0017). The watcher polls a watched token every
 * couple of seconds and the others far less often, so the provider's calls follow the people at
 * the counter rather than the number of open tokens.
 *
 * The poll routes answer every few seconds per open page: they must not pay a database write
 * each. So they only note the ids here, in memory, and one UPDATE per second writes
 * `last_viewed_at` for all of them (and pulls a token's next poll forward to the watched cadence,
 * so one that nobody watched is not left waiting 30 s). Opening a token's page is rarer and wants
 * an answer at once: it writes straight away and asks for a poll now.
 */

const FLUSH_EVERY_MS = 1_000;

const globalForViewers = globalThis as typeof globalThis & {
  verideskViewedTokens?: { ids: Set<string>; timer?: NodeJS.Timeout };
};

function pendingViews() {
  globalForViewers.verideskViewedTokens ??= { ids: new Set() };
  return globalForViewers.verideskViewedTokens;
}

/** Notes that pages show these tokens now; written with the others within a second. */
export function noteTokensViewed(ids: readonly string[]): void {
  if (ids.length === 0) return;
  const pending = pendingViews();
  for (const id of ids) pending.ids.add(id);
  if (pending.timer) return;
  pending.timer = setTimeout(() => {
    pending.timer = undefined;
    const batch = [...pending.ids];
    pending.ids.clear();
    void getDb()
      .then((db) => recordViews(db, batch, new Date(), env().WATCHER_WATCHED_POLL_MS))
      .catch((error: unknown) => logger.warn({ err: error, tokens: batch.length }, "could not record which tokens are watched"));
  }, FLUSH_EVERY_MS);
  pending.timer.unref?.();
}

/** Writes `last_viewed_at` for open tokens and brings each one's next poll within the watched cadence. */
export async function recordViews(db: Database, ids: readonly string[], now: Date, watchedPollMs: number): Promise<void> {
  if (ids.length === 0) return;
  const soon = new Date(now.getTime() + watchedPollMs);
  await db
    .update(tokenRequests)
    .set({ lastViewedAt: now, nextPollAt: sql`least(${tokenRequests.nextPollAt}, ${soon.toISOString()}::timestamptz)` })
    .where(and(inArray(tokenRequests.id, [...ids]), eq(tokenRequests.outcome, "issued"), isNull(tokenRequests.finishedAt)));
}

/**
 * A page opened on a token: it is watched from now, and due a poll now, so what the page shows
 * next comes from the service rather than from however long ago nobody was looking.
 */
export async function recordTokenOpened(db: Database, id: string, now: Date): Promise<void> {
  await db
    .update(tokenRequests)
    .set({ lastViewedAt: now, nextPollAt: now })
    .where(and(eq(tokenRequests.id, id), eq(tokenRequests.outcome, "issued"), isNull(tokenRequests.finishedAt)));
}
