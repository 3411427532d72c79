import "server-only";
import { createHmac } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { secondFactorUsedCodes } from "@/lib/db/schema";

/**
 * A code is good once. better-auth accepts an authenticator code for as long as its window lasts
 * (the step before, the current one and the next: up to 90 s), so a code read over a shoulder or
 * replayed from a captured request would open a second session. Each code is therefore CLAIMED
 * for its user before the plugin checks it: one row per (user, digest of the code), whose primary
 * key lets exactly one of two simultaneous requests insert it. A wrong code gives its claim back;
 * a right one keeps it until the window has long passed.
 */

/** Longer than any window in which better-auth would still accept the code (3 steps of 30 s). */
export const USED_CODE_KEEP_MS = 5 * 60_000;

export type CodeKind = "totp" | "backup_code";

/** Only a keyed digest of the code is stored: the table never holds a usable code. */
export function usedCodeDigest(key: string, claim: { userId: string; kind: CodeKind; code: string }): string {
  return createHmac("sha256", key).update(`${claim.kind}\0${claim.userId}\0${claim.code.trim()}`).digest("base64url");
}

/** True when this request may have the code checked; false when it was accepted for the user already. */
export async function claimCode(db: DbExecutor, userId: string, codeDigest: string, now = new Date()): Promise<boolean> {
  // Rows past their use are purged first, so an old claim never refuses a code that came round again.
  await db.delete(secondFactorUsedCodes).where(lt(secondFactorUsedCodes.usedAt, new Date(now.getTime() - USED_CODE_KEEP_MS)));
  const inserted = await db
    .insert(secondFactorUsedCodes)
    .values({ userId, codeDigest, usedAt: now })
    .onConflictDoNothing()
    .returning({ userId: secondFactorUsedCodes.userId });
  return inserted.length > 0;
}

/** The code turned out wrong (or was not checked at all): its claim goes. */
export async function releaseCode(db: DbExecutor, userId: string, codeDigest: string): Promise<void> {
  await db.delete(secondFactorUsedCodes).where(and(eq(secondFactorUsedCodes.userId, userId), eq(secondFactorUsedCodes.codeDigest, codeDigest)));
}
