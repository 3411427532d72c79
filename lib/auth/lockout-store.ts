import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { signInThrottles } from "@/lib/db/schema";
import { emptyThrottleState, isLocked, recordFailure, type ThrottleState } from "./lockout";

/** Persistence of the lock-out state (lockout.ts holds the rules). One row per typed username. */

function toState(row: { recentFailures: string[]; lockedUntil: Date | null } | undefined): ThrottleState {
  if (!row) return emptyThrottleState();
  return { recentFailures: row.recentFailures.map((at) => new Date(at)), lockedUntil: row.lockedUntil };
}

export async function lockedUntilFor(username: string, now = new Date()): Promise<Date | null> {
  const db = await getDb();
  const [row] = await db.select().from(signInThrottles).where(eq(signInThrottles.username, username));
  const state = toState(row);
  return isLocked(state, now) ? state.lockedUntil : null;
}

/** Counts one failed attempt; row-locked so that simultaneous failures are all counted. */
export async function countFailedSignIn(username: string, now = new Date()): Promise<{ hasJustLocked: boolean; state: ThrottleState }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.insert(signInThrottles).values({ username }).onConflictDoNothing();
    const [row] = await tx.select().from(signInThrottles).where(eq(signInThrottles.username, username)).for("update");
    const next = recordFailure(toState(row), now);
    await tx
      .update(signInThrottles)
      .set({
        recentFailures: next.state.recentFailures.map((at) => at.toISOString()),
        lockedUntil: next.state.lockedUntil,
        updatedAt: now,
      })
      .where(eq(signInThrottles.username, username));
    return next;
  });
}

/** After a successful sign-in or a password reset by an administrator. */
export async function clearFailedSignIns(username: string): Promise<void> {
  const db = await getDb();
  await db.delete(signInThrottles).where(eq(signInThrottles.username, username));
}
