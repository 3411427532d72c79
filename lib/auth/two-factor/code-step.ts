import "server-only";
import { eq } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/types";
import { authSessions, authUsers, staffProfiles } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { claimSignInAttempt, clearFailedSignIns, countFailedSignIn, releaseSignInAttempt } from "../lockout-store";
import { recordSignIn } from "../sign-in-audit";
import type { SignInMethod } from "../sign-in-methods";
import { claimCode, releaseCode, usedCodeDigest, type CodeKind } from "./used-codes";

/**
 * The second step of a password sign-in (an authenticator code or a backup code), around
 * better-auth's twoFactor endpoints. better-auth itself neither refuses a code used a moment ago
 * nor knows the app's lock-out and audit trail; this does, from the app's before and after hooks
 * (lib/auth/server.ts):
 *
 * - before: the username's lock-out counts the code like a password guess (a stolen password must
 *   not be followed by unlimited code guesses), then the code is claimed (used-codes.ts);
 * - after: an accepted code is the sign-in (`auth.sign_in` with its method, lock-out cleared); a
 *   refused one gives its claim back, counts as a failed sign-in and is audited.
 *
 * The same endpoints confirm a new authenticator during enrolment, with a session instead of the
 * pending sign-in: the code is claimed there too, but nothing of the sign-in rules applies.
 */

export const CODE_PATHS: Readonly<Record<string, CodeKind>> = {
  "/two-factor/verify-totp": "totp",
  "/two-factor/verify-backup-code": "backup_code",
};

export const codeStepErrorCodes = {
  used: "CODE_ALREADY_USED",
  trustDeviceRefused: "TRUST_DEVICE_REFUSED",
} as const;

export const CODE_USED_MESSAGE = "This code was used already. Wait for the next code in your authenticator app.";

type Pending = { userId: string; username: string; branchId: string | null; digest: string; kind: CodeKind; isSignIn: boolean };

/** What the before hook learnt, for the after hook of the same request (keyed by its body object). */
const pendingByBody = new WeakMap<object, Pending>();

export type CodeStepOutcome = { refused: "locked"; lockedUntil: Date } | { refused: "used" } | { refused: null };

/**
 * Before the plugin checks the code. `signInUserId` is the user of a pending sign-in (better-auth's
 * two-factor cookie), `sessionToken` that of a signed-in session (enrolment); neither: nothing to
 * do, the plugin refuses the request itself.
 */
export async function beforeCodeStep(
  db: Database,
  request: { path: string; body: unknown; sessionToken: string | null; signInUserId: () => Promise<string | null>; codeKey: string; ip: string | null; requestId: string },
): Promise<CodeStepOutcome> {
  const kind = CODE_PATHS[request.path];
  const body = request.body as { code?: unknown } | undefined;
  if (!kind || !body || typeof body !== "object" || typeof body.code !== "string") return { refused: null };
  const sessionUserId = request.sessionToken ? await userOfSession(db, request.sessionToken) : null;
  const userId = sessionUserId ?? (await request.signInUserId());
  if (!userId) return { refused: null };
  const account = await accountOf(db, userId);
  if (!account) return { refused: null };
  const isSignIn = sessionUserId === null;
  if (isSignIn) {
    const claim = await claimSignInAttempt(db, account.username);
    if (!claim.isAllowed) return { refused: "locked", lockedUntil: claim.lockedUntil };
  }
  const digest = usedCodeDigest(request.codeKey, { userId, kind, code: body.code });
  if (!(await claimCode(db, userId, digest))) {
    // Not a guess: the code was right once. It neither counts nor locks, but it is on the trail.
    if (isSignIn) await releaseSignInAttempt(db, account.username);
    logger.info({ requestId: request.requestId, userId, kind }, "second factor refused: code already used");
    await recordAuditEvent(db, {
      action: "auth.second_factor_failed",
      actor: { userId, username: account.username },
      branchId: account.branchId,
      details: { method: kind, reason: "code_already_used", ip: request.ip },
      requestId: request.requestId,
    });
    return { refused: "used" };
  }
  pendingByBody.set(body, { userId, username: account.username, branchId: account.branchId, digest, kind, isSignIn });
  return { refused: null };
}

/**
 * After the plugin answered. Accepted at sign-in: the sign-in is audited with its method and the
 * lock-out cleared (`onSignedIn` gives the address its claim back). Refused: the claim of the
 * code is released and, at sign-in, the failure counts towards the lock-out and is audited.
 * Answers whether the username has just locked.
 */
export async function afterCodeStep(
  db: Database,
  request: { body: unknown; isRefused: boolean; refusalCode: string | undefined; newSessionId: string | null; ip: string | null; requestId: string; onSignedIn: (username: string) => void },
): Promise<{ hasJustLocked: boolean; lockedUntil?: Date }> {
  const pending = request.body && typeof request.body === "object" ? pendingByBody.get(request.body) : undefined;
  if (!pending) return { hasJustLocked: false };
  pendingByBody.delete(request.body as object);
  const method: SignInMethod = pending.kind;
  if (!request.isRefused) {
    if (pending.isSignIn && request.newSessionId) {
      await clearFailedSignIns(db, pending.username);
      request.onSignedIn(pending.username);
      logger.info({ requestId: request.requestId, userId: pending.userId, method }, "signed in");
      await recordSignIn(db, { userId: pending.userId, username: pending.username, sessionId: request.newSessionId, method, ip: request.ip, requestId: request.requestId });
    }
    return { hasJustLocked: false };
  }
  await releaseCode(db, pending.userId, pending.digest);
  if (!pending.isSignIn) return { hasJustLocked: false };
  const { hasJustLocked, state } = await countFailedSignIn(db, pending.username);
  logger.info({ requestId: request.requestId, userId: pending.userId, method, code: request.refusalCode, hasJustLocked }, "second factor refused");
  await recordAuditEvent(db, {
    action: "auth.second_factor_failed",
    actor: { userId: pending.userId, username: pending.username },
    branchId: pending.branchId,
    details: { method, reason: request.refusalCode ?? "refused", ip: request.ip },
    requestId: request.requestId,
  });
  if (hasJustLocked) {
    await recordAuditEvent(db, {
      action: "auth.locked_out",
      actor: null,
      actorLabel: pending.username,
      branchId: pending.branchId,
      details: { lockedUntil: state.lockedUntil?.toISOString(), ip: request.ip, after: "second_factor" },
      requestId: request.requestId,
    });
  }
  return { hasJustLocked, lockedUntil: state.lockedUntil ?? undefined };
}

/** The password was right and the account has an authenticator: a code is asked for next. */
export async function recordSecondFactorRequired(db: Database, signIn: { userId: string; username: string; ip: string | null; requestId: string }): Promise<void> {
  const account = await accountOf(db, signIn.userId);
  logger.info({ requestId: signIn.requestId, userId: signIn.userId }, "password accepted, second factor asked for");
  await recordAuditEvent(db, {
    action: "auth.second_factor_required",
    actor: { userId: signIn.userId, username: signIn.username },
    branchId: account?.branchId ?? null,
    details: { ip: signIn.ip },
    requestId: signIn.requestId,
  });
}

async function userOfSession(db: Database, token: string): Promise<string | null> {
  const [row] = await db.select({ userId: authSessions.userId }).from(authSessions).where(eq(authSessions.token, token));
  return row?.userId ?? null;
}

async function accountOf(db: Database, userId: string): Promise<{ username: string; branchId: string | null } | undefined> {
  const [row] = await db
    .select({ username: authUsers.username, branchId: staffProfiles.branchId })
    .from(authUsers)
    .leftJoin(staffProfiles, eq(staffProfiles.userId, authUsers.id))
    .where(eq(authUsers.id, userId));
  return row ? { username: row.username ?? "", branchId: row.branchId ?? null } : undefined;
}
