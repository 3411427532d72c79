import "server-only";
import { and, count, eq, ne } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import { betterAuthErrorCode, getAuth } from "@/lib/auth/server";
import type { Staff } from "@/lib/auth/types";
import type { DbExecutor } from "@/lib/db/types";
import { authSessions, staffProfiles } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { passwordMessages, type ChangePasswordInput } from "@/lib/auth/password-rules";

/**
 * The staff member replaces the temporary password an administrator gave them (ADR 0012).
 *
 * better-auth's own `changePassword` checks the temporary password, hashes the new one with the
 * hasher sign-in verifies against, and — with `revokeOtherSessions` — deletes every session of
 * the account and opens a fresh one for this browser in one transaction; `nextCookies` sets its
 * cookie on the action's answer. Then the flag is cleared and the change audited together. If
 * that second step failed, the new password would stand with the flag still set: the staff
 * member is asked for a new password once more, which an administrator's reset settles.
 */
export async function replaceTemporaryPassword(
  db: DbExecutor,
  staff: Staff,
  input: ChangePasswordInput,
  requestHeaders: Headers,
  requestId?: string,
): Promise<void> {
  if (!staff.mustChangePassword) {
    throw new AppError("CONFLICT", "no temporary password to replace", {
      userMessage: "Your password was changed already. Continue to your home page.",
    });
  }
  const [others] = await db
    .select({ total: count() })
    .from(authSessions)
    .where(and(eq(authSessions.userId, staff.userId), ne(authSessions.id, staff.session.id)));

  const auth = await getAuth();
  try {
    await auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: requestHeaders,
    });
  } catch (error) {
    throw toChangeError(error);
  }

  await db.transaction(async (tx) => {
    await tx.update(staffProfiles).set({ mustChangePassword: false, updatedAt: new Date() }).where(eq(staffProfiles.userId, staff.userId));
    await recordAuditEvent(tx, {
      action: "auth.password_changed",
      actor: { userId: staff.userId, username: staff.username },
      subject: { type: "staff", id: staff.userId },
      branchId: staff.branch.id,
      details: { reason: "temporary_password", endedOtherSessions: others?.total ?? 0 },
      requestId,
    });
  });
}

/** better-auth's refusals, as the field errors of the form; anything else stays as it is. */
function toChangeError(error: unknown): unknown {
  const code = betterAuthErrorCode(error);
  if (code === "INVALID_PASSWORD") {
    return new AppError("VALIDATION", "temporary password did not match", {
      fieldErrors: { currentPassword: [passwordMessages.currentWrong] },
    });
  }
  if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG") {
    return new AppError("VALIDATION", `better-auth refused the new password: ${code}`, {
      fieldErrors: { newPassword: [code === "PASSWORD_TOO_SHORT" ? passwordMessages.tooShort : passwordMessages.tooLong] },
    });
  }
  return error;
}
