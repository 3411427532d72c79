import "server-only";
import { eq } from "drizzle-orm";
import { getDb, type Database } from "@/lib/db/client";
import { signInThrottles } from "@/lib/db/schema";
import { USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from "@/lib/staff/username";
import { claimAttempt, emptyThrottleState, recordFailure, releaseAttempt, type Claim, type ThrottleState } from "./lockout";

/**
 * Persistence of the lock-out state (lockout.ts holds the rules). One row per typed username,
 * and only for a username that could exist: anything longer or stranger than a username may be
 * is refused by better-auth without a password check, so it gets no row (a signed-out stranger
 * cannot fill the table with megabyte-long keys).
 */

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export function isCountableUsername(username: string): boolean {
  return username.length >= USERNAME_MIN && username.length <= USERNAME_MAX && USERNAME_PATTERN.test(username);
}

function toState(row: { recentFailures: string[]; lockedUntil: Date | null } | undefined): ThrottleState {
  if (!row) return emptyThrottleState();
  return { recentFailures: row.recentFailures.map((at) => new Date(at)), lockedUntil: row.lockedUntil };
}

/**
 * Runs `change` on the username's row under a row lock (`FOR UPDATE`; PGlite runs one transaction
 * at a time anyway), so that reading the count, deciding and writing the new count are one step.
 */
async function withLockedRow<T>(
  username: string,
  now: Date,
  change: (state: ThrottleState) => { next: ThrottleState | null; result: T },
): Promise<T> {
  const db = await getDb();
  return db.transaction(async (tx: Transaction) => {
    await tx.insert(signInThrottles).values({ username }).onConflictDoNothing();
    const [row] = await tx.select().from(signInThrottles).where(eq(signInThrottles.username, username)).for("update");
    const { next, result } = change(toState(row));
    if (next) {
      await tx
        .update(signInThrottles)
        .set({ recentFailures: next.recentFailures.map((at) => at.toISOString()), lockedUntil: next.lockedUntil, updatedAt: now })
        .where(eq(signInThrottles.username, username));
    }
    return result;
  });
}

/** Before a password is checked: counts the guess, or refuses it (locked, or the window is full). */
export async function claimSignInAttempt(username: string, now = new Date()): Promise<Claim> {
  return withLockedRow(username, now, (state) => {
    const claim = claimAttempt(state, now);
    return { next: claim.isAllowed ? claim.state : null, result: claim };
  });
}

/** After a claimed guess failed: locks the username when the window is full. */
export async function countFailedSignIn(username: string, now = new Date()): Promise<{ hasJustLocked: boolean; state: ThrottleState }> {
  return withLockedRow(username, now, (state) => {
    const outcome = recordFailure(state, now);
    return { next: outcome.state, result: outcome };
  });
}

/** The password was right but the account may not sign in: that was no guess. */
export async function releaseSignInAttempt(username: string, now = new Date()): Promise<void> {
  await withLockedRow(username, now, (state) => ({ next: releaseAttempt(state), result: undefined }));
}

/** After a successful sign-in or a password reset by an administrator. */
export async function clearFailedSignIns(username: string): Promise<void> {
  const db = await getDb();
  await db.delete(signInThrottles).where(eq(signInThrottles.username, username));
}
