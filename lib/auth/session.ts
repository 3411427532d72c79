import "server-only";
import { eq, sql } from "drizzle-orm";
import { headers } from "next/headers";
import { cache } from "react";
import { recordAuditEvent } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import type { DbExecutor } from "@/lib/db/types";
import { builtOncePerDatabase } from "@/lib/db/prepared";
import { authSessions, authUsers, branches, staffProfiles } from "@/lib/db/schema";
import { env, mfaRequiredFor } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { hasPermission, permissionsOf, type Permission } from "./permissions";
import { isOwnSiteNavigation } from "./request-origin";
import { verifiedSessionToken } from "./session-cookie";
import { sessionStanding, shouldRecordActivity } from "./session-policy";
import { isSignInMethod } from "./sign-in-methods";
import { mustEnrolSecondFactor } from "./two-factor/policy";
import type { Staff } from "./types";

/**
 * Who is asking. Every page, route handler and action starts here (through requireStaff /
 * requirePermission, staffRoute, or the action wrapper); proxy.ts only turns signed-out
 * browsers to the sign-in page and decides nothing.
 */

export type SessionOutcome =
  | { staff: Staff }
  /** No staff: `endedBecause` says why a session that existed no longer counts. */
  | { staff: null; endedBecause?: "idle" | "absolute" | "disabled" };

type ResolveOptions = {
  /**
   * Whether this request counts as activity for the idle timeout. Pages, actions and the
   * "Stay signed in" button do; background polling must not (an open token page would keep a
   * counter's session alive forever).
   */
  countsAsActivity: boolean;
};

/** The one statement of the session check, built once (lib/db/prepared.ts). */
const sessionByToken = builtOncePerDatabase("session_by_token", (db) =>
  db
    .select({
      sessionId: authSessions.id,
      createdAt: authSessions.createdAt,
      expiresAt: authSessions.expiresAt,
      lastActiveAt: authSessions.lastActiveAt,
      authMethod: authSessions.authMethod,
      userId: authUsers.id,
      username: authUsers.username,
      name: authUsers.name,
      role: staffProfiles.role,
      disabledAt: staffProfiles.disabledAt,
      isDemo: staffProfiles.isDemo,
      mustChangePassword: staffProfiles.mustChangePassword,
      branchId: branches.id,
      branchCode: branches.code,
      branchName: branches.name,
    })
    .from(authSessions)
    .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
    .leftJoin(staffProfiles, eq(staffProfiles.userId, authUsers.id))
    .leftJoin(branches, eq(branches.id, staffProfiles.branchId))
    .where(eq(authSessions.token, sql.placeholder("token"))),
);

/**
 * Reads the session cookie in `requestHeaders` and checks it against every rule, in ONE statement
 * (ADR 0026): the signed cookie is verified in process, then session ⋈ user ⋈ staff profile ⋈
 * branch by its token. Nothing is cached between requests, so a sign-out (the row is deleted), a
 * disabled account and the idle limit take effect on the very next request.
 */
export async function resolveSession(requestHeaders: Headers, options: ResolveOptions): Promise<SessionOutcome> {
  const settings = env();
  const token = verifiedSessionToken(requestHeaders.get("cookie"), settings.AUTH_SECRET);
  if (!token) return { staff: null };
  const db = await getDb();
  const now = new Date();
  const [found] = await sessionByToken(db).execute({ token });
  if (!found) return { staff: null };
  const session = { id: found.sessionId, createdAt: found.createdAt };
  const user = { id: found.userId, username: found.username, name: found.name };
  const profile =
    found.role && found.branchId && found.branchCode && found.branchName
      ? {
          role: found.role,
          disabledAt: found.disabledAt,
          isDemo: found.isDemo ?? false,
          mustChangePassword: found.mustChangePassword ?? false,
          branchId: found.branchId,
          branchCode: found.branchCode,
          branchName: found.branchName,
        }
      : undefined;
  const lastActiveAt = found.lastActiveAt ?? found.createdAt;
  const standing = sessionStanding(
    { createdAt: found.createdAt, lastActiveAt },
    { idleMinutes: settings.SESSION_IDLE_MINUTES, maxHours: settings.SESSION_MAX_HOURS },
    now,
  );
  // better-auth's own expiry of the row counts too (it is the absolute limit it was given).
  const isPastRowExpiry = found.expiresAt.getTime() <= now.getTime();

  const isRefusedAccount = !profile || profile.disabledAt !== null || (profile.isDemo && settings.APP_ENV === "production");
  if (isRefusedAccount || !standing.isActive || isPastRowExpiry) {
    const reason = isRefusedAccount ? "disabled" : standing.isActive ? "absolute" : standing.reason;
    // Deleting the row makes the cookie worthless everywhere at once, whichever instance asks next.
    const deleted = await db
      .delete(authSessions)
      .where(eq(authSessions.id, session.id))
      .returning({ id: authSessions.id });
    if (deleted.length > 0) {
      logger.info({ userId: user.id, sessionId: session.id, reason }, "session ended");
      await recordAuditEvent(db, {
        action: "auth.session_ended",
        actor: { userId: user.id, username: user.username ?? user.name },
        subject: { type: "session", id: session.id },
        branchId: profile?.branchId ?? null,
        details: { reason },
      });
    }
    return { staff: null, endedBecause: reason };
  }

  const signInMethod = isSignInMethod(found.authMethod) ? found.authMethod : "password";
  let idleExpiresAt = standing.idleExpiresAt;
  if (options.countsAsActivity && shouldRecordActivity(lastActiveAt, now)) {
    await db.update(authSessions).set({ lastActiveAt: now }).where(eq(authSessions.id, session.id));
    idleExpiresAt = new Date(now.getTime() + settings.SESSION_IDLE_MINUTES * 60_000);
  }

  return {
    staff: {
      userId: user.id,
      username: user.username ?? "",
      name: user.name,
      role: profile.role,
      branch: { id: profile.branchId, code: profile.branchCode, name: profile.branchName },
      permissions: permissionsOf(profile.role),
      // A temporary password matters only to someone signing in with it: a bank sign-in never uses it.
      mustChangePassword: profile.mustChangePassword && signInMethod !== "sso",
      mustEnrolSecondFactor: mustEnrolSecondFactor({ role: profile.role, signInMethod }, mfaRequiredFor(settings)),
      session: { id: session.id, signInMethod, idleExpiresAt, absoluteExpiresAt: standing.absoluteExpiresAt },
    },
  };
}

/**
 * The signed-in staff member of this request, or null. Memoised per server render. Another site's
 * link is no activity of the staff member: it neither writes nor keeps an idle session alive.
 */
export const getCurrentSession = cache(async (): Promise<SessionOutcome> => {
  const requestHeaders = await headers();
  return resolveSession(requestHeaders, { countsAsActivity: isOwnSiteNavigation(requestHeaders) });
});

export async function getCurrentStaff(): Promise<Staff | null> {
  return (await getCurrentSession()).staff;
}

/**
 * For route handlers and actions: the staff member, or an AppError UNAUTHENTICATED (401) /
 * PASSWORD_CHANGE_REQUIRED (403, still on a temporary password) / SECOND_FACTOR_REQUIRED (403,
 * must set up a second factor first) / FORBIDDEN (403). Pages use
 * requireStaff / requirePermission (lib/auth/pages.ts) instead.
 */
export async function authenticate(
  requestHeaders: Headers,
  options: ResolveOptions & { permission?: Permission | null },
): Promise<Staff> {
  const { staff } = await resolveSession(requestHeaders, options);
  if (!staff) throw new AppError("UNAUTHENTICATED", "no valid session");
  assertPasswordChosen(staff);
  assertSecondFactorSetUp(staff);
  if (options.permission && !hasPermission(staff.role, options.permission)) {
    throw new AppError("FORBIDDEN", `role ${staff.role} lacks ${options.permission}`);
  }
  return staff;
}

/**
 * Refuses a staff member still on a temporary password (ADR 0012). Checked before the permission,
 * so whatever their role they learn the one thing to do next.
 */
export function assertPasswordChosen(staff: Staff): void {
  if (staff.mustChangePassword) {
    throw new AppError("PASSWORD_CHANGE_REQUIRED", `staff ${staff.userId} has a temporary password`);
  }
}

/**
 * Refuses a session that must set up a second factor and has none (MFA_REQUIRED_FOR). After
 * assertPasswordChosen: a temporary password is replaced first, then the authenticator set up.
 */
export function assertSecondFactorSetUp(staff: Staff): void {
  if (staff.mustEnrolSecondFactor) {
    throw new AppError("SECOND_FACTOR_REQUIRED", `staff ${staff.userId} must set up a second factor`);
  }
}

/** Ends every session of a staff member at once (disable, password reset). */
export async function revokeAllSessionsOf(db: DbExecutor, userId: string): Promise<number> {
  const deleted = await db.delete(authSessions).where(eq(authSessions.userId, userId)).returning({ id: authSessions.id });
  return deleted.length;
}
