import "server-only";
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/types";
import { tokenEvents, tokenRequests, upstreamCallBudget, type TokenRequest } from "@/lib/db/schema";
import { isFinalState } from "@/lib/tokens/state";
import { factsFromRow, factColumnsFrom } from "@/lib/tokens/token-facts";
import { enqueueTokenFinished } from "@/lib/webhooks/outbox";
import type { WatchedToken, WatcherStore } from "./types";

/**
 * The watcher's store on the token table (PGlite or PostgreSQL, same SQL). A token is due when it
 * was issued, is not closed, its `next_poll_at` has come and no live lease holds it. Leasing takes
 * row locks with SKIP LOCKED inside one short transaction, so two instances ticking at the same
 * moment split the due tokens between them instead of polling them twice. The same transaction
 * holds the one-row provider budget (`upstream_call_budget`) under its row lock: no lease while
 * the service has asked everyone to pause, and no more polls per second, all instances together,
 * than the budget allows (ADR 0017).
 */

/** The budget counts polls in one-second windows. */
const BUDGET_WINDOW_MS = 1_000;
export function createDrizzleWatcherStore(
  db: Database,
): WatcherStore & { nextDueAt(): Promise<Date | null>; clearAllLeases(): Promise<void> } {
  return {
    async leaseDue({ owner, now, leaseMs, limit, callsPerSecond }) {
      return db.transaction(async (tx) => {
        // A missing row (a database migrated by hand) is made here; the migration inserts it.
        await tx.insert(upstreamCallBudget).values({ id: 1, windowStartedAt: now }).onConflictDoNothing();
        const [budget] = await tx.select().from(upstreamCallBudget).where(eq(upstreamCallBudget.id, 1)).for("update");
        if (budget!.pausedUntil && budget!.pausedUntil > now) {
          return { tokens: [], pausedUntil: budget!.pausedUntil, budgetSpentUntil: null };
        }
        const isNewWindow = now.getTime() - budget!.windowStartedAt.getTime() >= BUDGET_WINDOW_MS || budget!.windowStartedAt > now;
        const windowStartedAt = isNewWindow ? now : budget!.windowStartedAt;
        const spent = isNewWindow ? 0 : budget!.callsInWindow;
        const allowed = Math.min(limit, Math.max(0, callsPerSecond - spent));
        const due = allowed === 0 ? [] : await tx
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
          .limit(allowed)
          .for("update", { skipLocked: true });
        const isBudgetSpent = allowed < limit;
        await tx
          .update(upstreamCallBudget)
          .set({
            windowStartedAt,
            callsInWindow: spent + due.length,
            pausedUntil: null,
            pauseReason: null,
            // Kept from the first refusal until a round is granted all it asked for: the backlog's age.
            deferredSince: isBudgetSpent ? (budget!.deferredSince ?? now) : null,
          })
          .where(eq(upstreamCallBudget.id, 1));
        const budgetSpentUntil = isBudgetSpent ? new Date(windowStartedAt.getTime() + BUDGET_WINDOW_MS) : null;
        if (due.length === 0) return { tokens: [], pausedUntil: null, budgetSpentUntil };
        const rows = await tx
          .update(tokenRequests)
          .set({ leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs) })
          .where(inArray(tokenRequests.id, due.map((row) => row.id)))
          .returning();
        return { tokens: rows.map(toWatchedToken), pausedUntil: null, budgetSpentUntil };
      });
    },

    async renewLeases({ owner, ids, now, leaseMs }) {
      if (ids.length === 0) return [];
      const renewed = await db
        .update(tokenRequests)
        .set({ leaseUntil: new Date(now.getTime() + leaseMs) })
        .where(and(inArray(tokenRequests.id, ids), eq(tokenRequests.leaseOwner, owner)))
        .returning({ id: tokenRequests.id });
      return renewed.map((row) => row.id);
    },

    async pauseCalls({ until, reason }) {
      await db
        .update(upstreamCallBudget)
        .set({ pausedUntil: until, pauseReason: reason })
        .where(and(eq(upstreamCallBudget.id, 1), or(isNull(upstreamCallBudget.pausedUntil), lt(upstreamCallBudget.pausedUntil, until))));
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
        // The bank hears of the final state from the same commit that records it (the outbox).
        if (closed) await enqueueTokenFinished(tx, watched.id, now);
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
          await recordAuditEvent(tx, {
            action: isFinalState(outcome.state) ? "token.finished" : "token.state_changed",
            actor: null,
            actorLabel: "watcher",
            subject: { type: "token_request", id: watched.id },
            branchId: watched.branchId,
            details: event.details,
          });
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
      // A token another poll holds is not due before its lease ends (greatest() skips a null lease).
      const [earliest] = await db
        .select({ at: sql<Date | null>`min(greatest(${tokenRequests.nextPollAt}, ${tokenRequests.leaseUntil}))`.mapWith(tokenRequests.nextPollAt) })
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
    lastViewedAt: row.lastViewedAt,
    dueAt: row.nextPollAt,
  };
}
