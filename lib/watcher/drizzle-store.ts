import "server-only";
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, min, or } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/client";
import { tokenEvents, tokenRequests, type TokenRequest } from "@/lib/db/schema";
import { isFinalState } from "@/lib/tokens/state";
import { factsFromRow, factColumnsFrom } from "./token-facts";
import type { WatchedToken, WatcherStore } from "./types";

/**
 * The watcher's store on the token table (PGlite or PostgreSQL, same SQL). A token is due when it
 * was issued, is not closed, its `next_poll_at` has come and no live lease holds it. Leasing takes
 * row locks with SKIP LOCKED inside one short transaction, so two instances ticking at the same
 * moment split the due tokens between them instead of polling them twice.
 */
export function createDrizzleWatcherStore(
  db: Database,
): WatcherStore & { nextDueAt(): Promise<Date | null>; clearAllLeases(): Promise<void> } {
  return {
    async leaseDue({ owner, now, leaseMs, limit }) {
      const rows = await db.transaction(async (tx) => {
        const due = await tx
          .select({ id: tokenRequests.id })
          .from(tokenRequests)
          .where(
            and(
              eq(tokenRequests.outcome, "issued"),
              isNotNull(tokenRequests.token),
              isNotNull(tokenRequests.issuedAt),
              isNull(tokenRequests.finishedAt),
              lte(tokenRequests.nextPollAt, now),
              or(isNull(tokenRequests.leaseUntil), lt(tokenRequests.leaseUntil, now)),
            ),
          )
          .orderBy(asc(tokenRequests.nextPollAt))
          .limit(limit)
          .for("update", { skipLocked: true });
        if (due.length === 0) return [];
        return tx
          .update(tokenRequests)
          .set({ leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs) })
          .where(inArray(tokenRequests.id, due.map((row) => row.id)))
          .returning();
      });
      return rows.map(toWatchedToken);
    },

    async saveOutcome({ watched, owner, outcome, now }) {
      return db.transaction(async (tx) => {
        const closed = outcome.facts.closed;
        const [saved] = await tx
          .update(tokenRequests)
          .set({
            ...factColumnsFrom(outcome.facts),
            liveState: outcome.state,
            nextPollAt: outcome.nextPollAt,
            pollFailures: outcome.consecutiveFaults,
            lastCheckedAt: now,
            finishedAt: closed ? closed.at : null,
            leaseOwner: null,
            leaseUntil: null,
          })
          .where(and(eq(tokenRequests.id, watched.id), eq(tokenRequests.leaseOwner, owner)))
          .returning({ id: tokenRequests.id });
        if (!saved) return false;
        if (outcome.events.length > 0) {
          await tx.insert(tokenEvents).values(
            outcome.events.map((event) => ({
              tokenRequestId: watched.id,
              at: event.at,
              type: `watch.${event.type}`,
              details: event.details,
            })),
          );
        }
        for (const event of outcome.events.filter((candidate) => candidate.type === "state_changed")) {
          await recordAuditEvent(
            {
              action: isFinalState(outcome.state) ? "token.finished" : "token.state_changed",
              actor: null,
              actorLabel: "watcher",
              subject: { type: "token_request", id: watched.id },
              branchId: watched.branchId,
              details: event.details,
            },
            tx,
          );
        }
        return true;
      });
    },

    async releaseLeases(owner) {
      await db
        .update(tokenRequests)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(eq(tokenRequests.leaseOwner, owner));
    },

    async nextDueAt() {
      const [earliest] = await db
        .select({ at: min(tokenRequests.nextPollAt) })
        .from(tokenRequests)
        .where(and(eq(tokenRequests.outcome, "issued"), isNull(tokenRequests.finishedAt)));
      return earliest?.at ?? null;
    },

    async clearAllLeases() {
      await db
        .update(tokenRequests)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(isNotNull(tokenRequests.leaseOwner));
    },
  };
}

function toWatchedToken(row: TokenRequest): WatchedToken {
  const facts = factsFromRow(row);
  if (facts.issuance !== "issued" || !row.token) throw new Error(`leased token request ${row.id} has no token`);
  return {
    id: row.id,
    token: row.token,
    branchId: row.branchId,
    facts,
    storedState: row.liveState ?? "waiting",
    consecutiveFaults: row.pollFailures,
  };
}
