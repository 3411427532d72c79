import "server-only";
import { and, count, desc, eq, ne } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import { revokeAllSessionsOf } from "@/lib/auth/session";
import { secondFactorsOf } from "@/lib/auth/two-factor/enrolment";
import type { DbExecutor } from "@/lib/db/types";
import { authUsers, passkeys, secondFactorResets, twoFactors } from "@/lib/db/schema";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors";
import { findStaffMember } from "./accounts";
import type { Administrator } from "./role-approvals";

/**
 * Someone lost their authenticator app (or passkey) and has no backup code left: an administrator
 * removes their second factors so they can set new ones up. With a password reset, that is all it
 * takes to sign in as them, so it is maker-checker (ADR 0020): one administrator proposes it with
 * the reason (how the person was identified), a second one — neither the author nor the account's
 * owner — applies it, in one transaction with the removal; the author may cancel it. Applying it
 * also ends the person's sessions. Every step is audited.
 */

export type SecondFactorResetView = {
  id: string;
  reason: string;
  proposedByUserId: string;
  proposedByUsername: string;
  proposedAt: Date;
};

/** What the staff page shows of someone's second factors: what they have, and a proposal waiting. */
export async function secondFactorOverview(
  db: DbExecutor,
  userId: string,
): Promise<{ hasAuthenticator: boolean; backupCodesLeft: number | null; passkeyCount: number; pendingReset: SecondFactorResetView | null }> {
  const factors = await secondFactorsOf(db, userId);
  const [{ passkeyCount }] = (await db.select({ passkeyCount: count() }).from(passkeys).where(eq(passkeys.userId, userId))) as [{ passkeyCount: number }];
  const [pending] = await db
    .select({
      id: secondFactorResets.id,
      reason: secondFactorResets.reason,
      proposedByUserId: secondFactorResets.proposedByUserId,
      proposedByUsername: secondFactorResets.proposedByUsername,
      proposedAt: secondFactorResets.proposedAt,
    })
    .from(secondFactorResets)
    .where(and(eq(secondFactorResets.subjectUserId, userId), eq(secondFactorResets.status, "pending")))
    .orderBy(desc(secondFactorResets.proposedAt))
    .limit(1);
  return { ...factors, passkeyCount: Number(passkeyCount), pendingReset: pending ?? null };
}

export async function proposeSecondFactorReset(db: DbExecutor, admin: Administrator, userId: string, reason: string, requestId?: string): Promise<string> {
  if (userId === admin.userId) {
    throw new AppError("FORBIDDEN", "second factor reset of one's own account", {
      userMessage: "Use a backup code, or ask another administrator: nobody removes their own second factors.",
    });
  }
  const member = await findStaffMember(db, userId);
  const { hasAuthenticator, passkeyCount } = await secondFactorOverview(db, userId);
  if (!hasAuthenticator && passkeyCount === 0) {
    throw new AppError("CONFLICT", `staff member ${userId} has no second factor`, { userMessage: "This account has no authenticator app or passkey to remove." });
  }
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(secondFactorResets)
        .values({ subjectUserId: userId, reason, proposedByUserId: admin.userId, proposedByUsername: admin.username })
        .returning({ id: secondFactorResets.id });
      await recordAuditEvent(tx, {
        action: "staff.second_factor_reset_requested",
        actor: { userId: admin.userId, username: admin.username },
        subject: { type: "staff", id: userId },
        branchId: member.branch.id,
        details: { username: member.username, reason, resetId: row!.id },
        requestId,
      });
      return row!.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", `a second factor reset of ${userId} is pending`, { userMessage: "A removal of this account's second factors is already waiting for a second administrator." });
    }
    throw error;
  }
}

/** A second administrator applies the proposal: the authenticator, its backup codes and the passkeys go, and so do the sessions. */
export async function approveSecondFactorReset(db: DbExecutor, admin: Administrator, resetId: string, requestId?: string): Promise<{ username: string }> {
  return db.transaction(async (tx) => {
    const reset = await claim(tx, admin, resetId, "approved");
    const member = await findStaffMember(tx, reset.subjectUserId);
    const removedAuthenticator = (await tx.delete(twoFactors).where(eq(twoFactors.userId, reset.subjectUserId)).returning({ id: twoFactors.id })).length > 0;
    await tx.update(authUsers).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(authUsers.id, reset.subjectUserId));
    const removedPasskeys = (await tx.delete(passkeys).where(eq(passkeys.userId, reset.subjectUserId)).returning({ id: passkeys.id })).length;
    const endedSessions = await revokeAllSessionsOf(tx, reset.subjectUserId);
    await recordAuditEvent(tx, {
      action: "staff.second_factor_reset",
      actor: { userId: admin.userId, username: admin.username },
      subject: { type: "staff", id: reset.subjectUserId },
      branchId: member.branch.id,
      details: { username: member.username, resetId, proposedBy: reset.proposedByUsername, reason: reset.reason, removedAuthenticator, removedPasskeys, endedSessions },
      requestId,
    });
    return { username: member.username };
  });
}

export async function rejectSecondFactorReset(db: DbExecutor, admin: Administrator, resetId: string, requestId?: string): Promise<void> {
  await decideWithoutApplying(db, admin, resetId, "rejected", "staff.second_factor_reset_rejected", requestId);
}

export async function cancelSecondFactorReset(db: DbExecutor, admin: Administrator, resetId: string, requestId?: string): Promise<void> {
  await decideWithoutApplying(db, admin, resetId, "cancelled", "staff.second_factor_reset_cancelled", requestId);
}

async function decideWithoutApplying(
  db: DbExecutor,
  admin: Administrator,
  resetId: string,
  decision: "rejected" | "cancelled",
  action: "staff.second_factor_reset_rejected" | "staff.second_factor_reset_cancelled",
  requestId?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const reset = await claim(tx, admin, resetId, decision);
    const member = await findStaffMember(tx, reset.subjectUserId);
    await recordAuditEvent(tx, {
      action,
      actor: { userId: admin.userId, username: admin.username },
      subject: { type: "staff", id: reset.subjectUserId },
      branchId: member.branch.id,
      details: { username: member.username, resetId, proposedBy: reset.proposedByUsername },
      requestId,
    });
  });
}

/**
 * Moves a pending proposal to its decision in one conditional UPDATE, so two administrators
 * deciding at once cannot both win: approve and reject only by someone other than the author and
 * the account's owner, cancel only by the author.
 */
async function claim(tx: DbExecutor, admin: Administrator, resetId: string, decision: "approved" | "rejected" | "cancelled") {
  const who =
    decision === "cancelled"
      ? eq(secondFactorResets.proposedByUserId, admin.userId)
      : and(ne(secondFactorResets.proposedByUserId, admin.userId), ne(secondFactorResets.subjectUserId, admin.userId));
  const [claimed] = await tx
    .update(secondFactorResets)
    .set({ status: decision, decidedByUserId: admin.userId, decidedByUsername: admin.username, decidedAt: new Date() })
    .where(and(eq(secondFactorResets.id, resetId), eq(secondFactorResets.status, "pending"), who))
    .returning();
  if (claimed) return claimed;
  const [reset] = await tx.select().from(secondFactorResets).where(eq(secondFactorResets.id, resetId));
  if (!reset) throw new AppError("NOT_FOUND", `no second factor reset ${resetId}`);
  if (reset.status !== "pending") {
    throw new AppError("CONFLICT", `second factor reset ${resetId} is ${reset.status}`, { userMessage: `This removal was ${reset.status} already.` });
  }
  throw new AppError("FORBIDDEN", `second factor reset ${resetId}: ${decision} refused to ${admin.userId}`, {
    userMessage:
      decision === "cancelled"
        ? "Only the administrator who proposed this can cancel it."
        : reset.subjectUserId === admin.userId
          ? "You cannot decide on the removal of your own second factors."
          : "A second administrator must decide on your own proposal.",
  });
}
