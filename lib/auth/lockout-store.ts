import "server-only";
import { eq } from "drizzle-orm";
import type { Database, DbExecutor, Transaction } from "@/lib/db/types";
import { authUsers, signInThrottles } from "@/lib/db/schema";
import { USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from "./username";
import { claimAttempt, emptyThrottleState, recordFailure, releaseAttempt, type Claim, type ThrottleState } from "./lockout";
import { BoundedThrottleMap } from "./signed-out-writes";

/**
 * Persistence of the lock-out state (lockout.ts holds the rules). One row per typed username,
 * and only for a username that could exist: anything longer or stranger than a username may be
 * is refused by better-auth without a password check, so it gets no row (a signed-out stranger
 * cannot fill the table with megabyte-long keys). And only for a username that has an account:
 * the others keep the same state in a bounded map in memory (signed-out-writes.ts), so a burst
 * of random usernames writes no row at all, yet each of them locks exactly like a real one.
 */


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
  db: Database,
  username: string,
  now: Date,
  change: (state: ThrottleState) => { next: ThrottleState | null; result: T },
): Promise<T> {
  if (!(await hasAccount(db, username))) {
    // No account: no row. The map is changed synchronously, so this too is one step.
    const { next, result } = change(unknownUsernames().get(username));
    if (next) unknownUsernames().set(username, next);
    return result;
  }
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
export async function claimSignInAttempt(db: Database, username: string, now = new Date()): Promise<Claim> {
  return withLockedRow(db, username, now, (state) => {
    const claim = claimAttempt(state, now);
    return { next: claim.isAllowed ? claim.state : null, result: claim };
  });
}

/** After a claimed guess failed: locks the username when the window is full. */
export async function countFailedSignIn(db: Database, username: string, now = new Date()): Promise<{ hasJustLocked: boolean; state: ThrottleState }> {
  return withLockedRow(db, username, now, (state) => {
    const outcome = recordFailure(state, now);
    return { next: outcome.state, result: outcome };
  });
}

/** The password was right but the account may not sign in: that was no guess. */
export async function releaseSignInAttempt(db: Database, username: string, now = new Date()): Promise<void> {
  await withLockedRow(db, username, now, (state) => ({ next: releaseAttempt(state), result: undefined }));
}

/** After a successful sign-in or a password reset by an administrator. */
export async function clearFailedSignIns(db: DbExecutor, username: string): Promise<void> {
  unknownUsernames().delete(username);
  await db.delete(signInThrottles).where(eq(signInThrottles.username, username));
}

export async function hasAccount(db: Database, username: string): Promise<boolean> {
  const [row] = await db.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.username, username)).limit(1);
  return row !== undefined;
}

// On globalThis like the database, so a dev reload keeps the counts.
const globalForThrottles = globalThis as typeof globalThis & { verideskUnknownUsernames?: BoundedThrottleMap };
const unknownUsernames = () => (globalForThrottles.verideskUnknownUsernames ??= new BoundedThrottleMap());
