import "server-only";
import { eq } from "drizzle-orm";
import { headers } from "next/headers";
import { cache } from "react";
import { recordAuditEvent } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import { authSessions, branches, staffProfiles } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { hasPermission, permissionsOf, type Permission } from "./permissions";
import { getAuth } from "./server";
import { sessionStanding, shouldRecordActivity } from "./session-policy";
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

/** Reads the session cookie in `requestHeaders` and checks it against every rule. */
export async function resolveSession(requestHeaders: Headers, options: ResolveOptions): Promise<SessionOutcome> {
  const auth = await getAuth();
  const found = await auth.api.getSession({ headers: requestHeaders, query: { disableRefresh: true } });
  if (!found) return { staff: null };
  const { session, user } = found;
  const settings = env();
  const now = new Date();
  const lastActiveAt = session.lastActiveAt ? new Date(session.lastActiveAt) : new Date(session.createdAt);
  const standing = sessionStanding(
    { createdAt: new Date(session.createdAt), lastActiveAt },
    { idleMinutes: settings.SESSION_IDLE_MINUTES, maxHours: settings.SESSION_MAX_HOURS },
    now,
  );

  const db = await getDb();
  const [profile] = await db
    .select({
      role: staffProfiles.role,
      disabledAt: staffProfiles.disabledAt,
      isDemo: staffProfiles.isDemo,
      mustChangePassword: staffProfiles.mustChangePassword,
      branchId: branches.id,
      branchCode: branches.code,
      branchName: branches.name,
    })
    .from(staffProfiles)
    .innerJoin(branches, eq(branches.id, staffProfiles.branchId))
    .where(eq(staffProfiles.userId, user.id));

  const isRefusedAccount = !profile || profile.disabledAt !== null || (profile.isDemo && settings.APP_ENV === "production");
  if (isRefusedAccount || !standing.isActive) {
    const reason = isRefusedAccount || standing.isActive ? "disabled" : standing.reason;
    // Deleting the row makes the cookie worthless everywhere at once, whichever instance asks next.
    const deleted = await db
      .delete(authSessions)
      .where(eq(authSessions.id, session.id))
      .returning({ id: authSessions.id });
    if (deleted.length > 0) {
      logger.info({ userId: user.id, sessionId: session.id, reason }, "session ended");
      await recordAuditEvent({
        action: "auth.session_ended",
        actor: { userId: user.id, username: user.username ?? user.name },
        subject: { type: "session", id: session.id },
        branchId: profile?.branchId ?? null,
        details: { reason },
      });
    }
    return { staff: null, endedBecause: reason };
  }

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
      mustChangePassword: profile.mustChangePassword,
      session: { id: session.id, idleExpiresAt, absoluteExpiresAt: standing.absoluteExpiresAt },
    },
  };
}

/** The signed-in staff member of this request, or null. Memoised per server render. */
export const getCurrentSession = cache(async (): Promise<SessionOutcome> => {
  return resolveSession(await headers(), { countsAsActivity: true });
});

export async function getCurrentStaff(): Promise<Staff | null> {
  return (await getCurrentSession()).staff;
}

/**
 * For route handlers and actions: the staff member, or an AppError UNAUTHENTICATED (401) /
 * PASSWORD_CHANGE_REQUIRED (403, still on a temporary password) / FORBIDDEN (403). Pages use
 * requireStaff / requirePermission (lib/auth/pages.ts) instead.
 */
export async function authenticate(
  requestHeaders: Headers,
  options: ResolveOptions & { permission?: Permission | null },
): Promise<Staff> {
  const { staff } = await resolveSession(requestHeaders, options);
  if (!staff) throw new AppError("UNAUTHENTICATED", "no valid session");
  assertPasswordChosen(staff);
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

/** Ends every session of a staff member at once (disable, password reset). */
export async function revokeAllSessionsOf(userId: string, executor?: Parameters<typeof recordAuditEvent>[1]): Promise<number> {
  const db = executor ?? (await getDb());
  const deleted = await db.delete(authSessions).where(eq(authSessions.userId, userId)).returning({ id: authSessions.id });
  return deleted.length;
}
