import "server-only";
import { hashPassword } from "better-auth/crypto";
import { and, asc, eq, isNull, ne, or, sql } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { authUsers, branches, staffRoleApprovals } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { generateTemporaryPassword } from "./passwords";
import type { CreateStaffInput, UpdateStaffInput } from "./schemas";
import { canDecide, decideGrant } from "./separation-of-duties";
import { applyStaffUpdate, createStaffAccount, findStaffMember, insertStaffAccount, updateStaffAccount, usernameTaken, type StaffMember } from "./accounts";
import { findBranch } from "./branches";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { normalizeUsername } from "@/lib/auth/username";

/**
 * Maker-checker for grants of customer data (ADR 0020). An administrator's create or role change
 * that `decideGrant` says needs a second administrator is stored as a pending proposal and changes
 * nothing; another administrator (not its author, not its subject) approves it — which applies it,
 * in the same transaction — or rejects it; its author may cancel it. Every step is audited.
 */

export type Administrator = { userId: string; username: string };

export type ProposalOutcome<Applied> = { status: "applied"; result: Applied } | { status: "pending"; approvalId: string };

/** The admin page's "add staff member": direct, or a proposal when the role needs approval. */
export async function proposeOrCreateStaff(
  db: DbExecutor,
  admin: Administrator,
  input: CreateStaffInput,
  requestId?: string,
): Promise<ProposalOutcome<{ member: StaffMember; temporaryPassword: string | null }>> {
  const decision = decideGrant({ actorUserId: admin.userId, subjectUserId: null, before: null, after: { role: input.role, branchId: input.branchId } });
  if (decision.kind === "direct") return { status: "applied", result: await createStaffAccount(db, admin, input, requestId) };
  if (decision.kind === "refused") throw new AppError("CONFLICT", `separation of duties: ${decision.reason}`, { userMessage: decision.userMessage });
  const username = normalizeUsername(input.username);
  try {
    const approvalId = await db.transaction(async (tx) => {
      const branch = await findBranch(tx, input.branchId);
      const [taken] = await tx.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.username, username));
      if (taken) throw usernameTaken(username);
      const [row] = await tx
        .insert(staffRoleApprovals)
        .values({ kind: "create", username, name: input.name, role: input.role, branchId: branch.id, proposedByUserId: admin.userId, proposedByUsername: admin.username })
        .returning({ id: staffRoleApprovals.id });
      await recordProposalEvent(tx, admin, "staff.approval_requested", row!.id, branch.id, {
        kind: "create",
        username,
        after: { name: input.name, role: input.role, branch: branch.code },
        reason: decision.reason,
      }, requestId);
      return row!.id;
    });
    return { status: "pending", approvalId };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", `username ${username} taken or already proposed`, {
        userMessage: "That username is taken or already waiting for approval.",
        fieldErrors: { username: ["This username is taken or already waiting for approval. Choose another."] },
      });
    }
    throw error;
  }
}

/** The admin page's "save changes" on an account: direct, refused, or a proposal. */
export async function proposeOrUpdateStaff(
  db: DbExecutor,
  admin: Administrator,
  input: UpdateStaffInput,
  requestId?: string,
): Promise<ProposalOutcome<StaffMember>> {
  const before = await findStaffMember(db, input.userId);
  const decision = decideGrant({
    actorUserId: admin.userId,
    subjectUserId: input.userId,
    before: { role: before.role, branchId: before.branch.id },
    after: { role: input.role, branchId: input.branchId },
  });
  if (decision.kind === "refused") throw new AppError("CONFLICT", `separation of duties: ${decision.reason}`, { userMessage: decision.userMessage });
  if (decision.kind === "direct") return { status: "applied", result: await updateStaffAccount(db, admin, input, requestId) };
  try {
    const approvalId = await db.transaction(async (tx) => {
      const branch = await findBranch(tx, input.branchId);
      const [row] = await tx
        .insert(staffRoleApprovals)
        .values({
          kind: "role_change",
          subjectUserId: before.userId,
          username: before.username,
          name: input.name,
          role: input.role,
          branchId: branch.id,
          fromRole: before.role,
          fromBranchId: before.branch.id,
          proposedByUserId: admin.userId,
          proposedByUsername: admin.username,
        })
        .returning({ id: staffRoleApprovals.id });
      await recordProposalEvent(tx, admin, "staff.approval_requested", row!.id, branch.id, {
        kind: "role_change",
        username: before.username,
        subjectUserId: before.userId,
        before: { name: before.name, role: before.role, branch: before.branch.code },
        after: { name: input.name, role: input.role, branch: branch.code },
        reason: decision.reason,
      }, requestId);
      return row!.id;
    });
    return { status: "pending", approvalId };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", `account ${before.userId} already has a pending proposal`, {
        userMessage: "A change to this account is already waiting for approval. Approve, reject or cancel it first.",
      });
    }
    throw error;
  }
}

export type PendingApproval = {
  id: string;
  kind: "create" | "role_change";
  subjectUserId: string | null;
  username: string;
  name: string;
  role: StaffRole;
  branch: { code: string; name: string };
  fromRole: StaffRole | null;
  fromBranchCode: string | null;
  proposedBy: { userId: string; username: string };
  proposedAt: Date;
};

export async function listPendingApprovals(db: DbExecutor): Promise<PendingApproval[]> {
  const [rows, allBranches] = await Promise.all([
    db.select().from(staffRoleApprovals).where(eq(staffRoleApprovals.status, "pending")).orderBy(asc(staffRoleApprovals.proposedAt)),
    db.select({ id: branches.id, code: branches.code, name: branches.name }).from(branches),
  ]);
  const branchById = new Map(allBranches.map((branch) => [branch.id, branch]));
  return rows.map((approval) => ({
    id: approval.id,
    kind: approval.kind,
    subjectUserId: approval.subjectUserId,
    username: approval.username,
    name: approval.name,
    role: approval.role,
    branch: { code: branchById.get(approval.branchId)?.code ?? "?", name: branchById.get(approval.branchId)?.name ?? "" },
    fromRole: approval.fromRole,
    fromBranchCode: approval.fromBranchId ? (branchById.get(approval.fromBranchId)?.code ?? null) : null,
    proposedBy: { userId: approval.proposedByUserId, username: approval.proposedByUsername },
    proposedAt: approval.proposedAt,
  }));
}

/**
 * How many proposals wait for this administrator's decision — pending, not their own, not about
 * their own account: exactly those `claim` would let them approve — and how many of their own wait
 * for someone else. The home page and the menu's badge show it, so a second administrator learns
 * that an approval waits without opening the staff page.
 */
export async function countWaitingApprovals(db: DbExecutor, adminUserId: string): Promise<{ toDecide: number; ownWaiting: number }> {
  const [row] = await db
    .select({
      toDecide: sql<number>`count(*) filter (where ${staffRoleApprovals.proposedByUserId} <> ${adminUserId} and (${staffRoleApprovals.subjectUserId} is null or ${staffRoleApprovals.subjectUserId} <> ${adminUserId}))::int`,
      ownWaiting: sql<number>`count(*) filter (where ${staffRoleApprovals.proposedByUserId} = ${adminUserId})::int`,
    })
    .from(staffRoleApprovals)
    .where(eq(staffRoleApprovals.status, "pending"));
  return { toDecide: Number(row?.toDecide ?? 0), ownWaiting: Number(row?.ownWaiting ?? 0) };
}

/**
 * A second administrator approves: the proposal is claimed with a conditional update (pending,
 * not theirs, not about them) and applied in the same transaction. For a new account the
 * temporary password is returned to the approver, who hands it over.
 */
export async function approveRoleApproval(
  db: DbExecutor,
  admin: Administrator,
  approvalId: string,
  requestId?: string,
): Promise<{ member: StaffMember; temporaryPassword: string | null }> {
  const temporaryPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(temporaryPassword);
  try {
    return await db.transaction(async (tx) => {
      const approval = await claim(tx, admin, approvalId, "approved");
      const branch = await findBranch(tx, approval.branchId);
      const link = { approvalId, proposedBy: approval.proposedByUsername, approvedBy: admin.username };
      if (approval.kind === "create") {
        const member = await insertStaffAccount(
          tx,
          admin,
          { username: approval.username, name: approval.name, role: approval.role, branchId: branch.id, passwordHash, isTemporary: true },
          requestId,
          link,
        );
        await tx.update(staffRoleApprovals).set({ subjectUserId: member.userId }).where(eq(staffRoleApprovals.id, approvalId));
        await recordProposalEvent(tx, admin, "staff.approval_approved", approvalId, branch.id, { kind: "create", username: approval.username, subjectUserId: member.userId, proposedBy: approval.proposedByUsername }, requestId);
        return { member, temporaryPassword };
      }
      const before = await findStaffMember(tx, approval.subjectUserId!);
      if (before.role !== approval.fromRole || before.branch.id !== approval.fromBranchId) {
        throw new AppError("CONFLICT", `approval ${approvalId} is stale`, {
          userMessage: "The account changed since this was proposed. Reject it; the proposer can propose again.",
        });
      }
      // Checked again with the approver as the one acting: they may not approve a grant to themselves.
      const decision = decideGrant({
        actorUserId: admin.userId,
        subjectUserId: before.userId,
        before: { role: before.role, branchId: before.branch.id },
        after: { role: approval.role, branchId: branch.id },
      });
      if (decision.kind === "refused") throw new AppError("CONFLICT", `separation of duties: ${decision.reason}`, { userMessage: decision.userMessage });
      const member = await applyStaffUpdate(
        tx,
        admin,
        { userId: before.userId, name: approval.name, role: approval.role, branchId: branch.id },
        before,
        branch,
        requestId,
        link,
      );
      await recordProposalEvent(tx, admin, "staff.approval_approved", approvalId, branch.id, { kind: "role_change", username: approval.username, subjectUserId: before.userId, proposedBy: approval.proposedByUsername }, requestId);
      return { member, temporaryPassword: null };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameTaken((await findApproval(db, approvalId))?.username ?? "");
    throw error;
  }
}

/** A second administrator turns a proposal down; nothing changes. */
export async function rejectRoleApproval(db: DbExecutor, admin: Administrator, approvalId: string, requestId?: string): Promise<void> {
  await db.transaction(async (tx) => {
    const approval = await claim(tx, admin, approvalId, "rejected");
    await recordProposalEvent(tx, admin, "staff.approval_rejected", approvalId, approval.branchId, { kind: approval.kind, username: approval.username, proposedBy: approval.proposedByUsername }, requestId);
  });
}

/** The author withdraws their own proposal. */
export async function cancelRoleApproval(db: DbExecutor, admin: Administrator, approvalId: string, requestId?: string): Promise<void> {
  await db.transaction(async (tx) => {
    const approval = await claim(tx, admin, approvalId, "cancelled");
    await recordProposalEvent(tx, admin, "staff.approval_cancelled", approvalId, approval.branchId, { kind: approval.kind, username: approval.username }, requestId);
  });
}

/**
 * Moves a pending proposal to its decision in one conditional UPDATE, so two administrators
 * deciding at once cannot both win: approve/reject only by someone else than the author and the
 * subject, cancel only by the author.
 */
async function claim(tx: DbExecutor, admin: Administrator, approvalId: string, decision: "approved" | "rejected" | "cancelled") {
  const who =
    decision === "cancelled"
      ? eq(staffRoleApprovals.proposedByUserId, admin.userId)
      : and(
          ne(staffRoleApprovals.proposedByUserId, admin.userId),
          or(isNull(staffRoleApprovals.subjectUserId), ne(staffRoleApprovals.subjectUserId, admin.userId)),
        );
  const [claimed] = await tx
    .update(staffRoleApprovals)
    .set({ status: decision, decidedByUserId: admin.userId, decidedByUsername: admin.username, decidedAt: new Date() })
    .where(and(eq(staffRoleApprovals.id, approvalId), eq(staffRoleApprovals.status, "pending"), who))
    .returning();
  if (claimed) return claimed;
  const approval = await findApproval(tx, approvalId);
  if (!approval) throw new AppError("NOT_FOUND", `no approval ${approvalId}`);
  if (approval.status !== "pending") {
    throw new AppError("CONFLICT", `approval ${approvalId} is ${approval.status}`, { userMessage: `This proposal was ${approval.status} already.` });
  }
  const rule = canDecide({ deciderUserId: admin.userId, proposedByUserId: approval.proposedByUserId, subjectUserId: approval.subjectUserId });
  throw new AppError("FORBIDDEN", `approval ${approvalId}: ${decision} refused to ${admin.userId} (${rule})`, {
    userMessage:
      decision === "cancelled"
        ? "Only the administrator who proposed this can cancel it."
        : rule === "cancel_only"
          ? "A second administrator must decide on your own proposal."
          : "You cannot decide on a change to your own account.",
  });
}

async function findApproval(db: DbExecutor, approvalId: string) {
  const [approval] = await db.select().from(staffRoleApprovals).where(eq(staffRoleApprovals.id, approvalId));
  return approval;
}

async function recordProposalEvent(
  tx: DbExecutor,
  admin: Administrator,
  action: "staff.approval_requested" | "staff.approval_approved" | "staff.approval_rejected" | "staff.approval_cancelled",
  approvalId: string,
  branchId: string,
  details: Record<string, unknown>,
  requestId?: string,
) {
  await recordAuditEvent(tx, { action, actor: { userId: admin.userId, username: admin.username }, subject: { type: "staff_approval", id: approvalId }, branchId, details, requestId });
}
