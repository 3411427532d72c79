"use server";

import { defineAction } from "@/lib/actions";
import { approveRoleApproval, cancelRoleApproval, proposeOrCreateStaff, proposeOrUpdateStaff, rejectRoleApproval } from "@/lib/staff/role-approvals";
import {
  createStaffSchema,
  resetPasswordSchema,
  roleApprovalDecisionSchema,
  secondFactorResetDecisionSchema,
  secondFactorResetProposalSchema,
  setStaffDisabledSchema,
  updateStaffSchema,
} from "@/lib/staff/schemas";
import { approveSecondFactorReset, cancelSecondFactorReset, proposeSecondFactorReset, rejectSecondFactorReset } from "@/lib/staff/second-factor-resets";
import { resetStaffPassword, setStaffDisabled } from "@/lib/staff/accounts";
import { getDb } from "@/lib/db/client";

/**
 * Staff administration. Every change is audited by lib/staff (before/after for role and branch).
 * A grant of customer data or of the administrator role waits for a second administrator
 * (ADR 0020): create and update then answer `pending` and change nothing yet.
 */

export const createStaffAction = defineAction(
  { name: "staff.create", schema: createStaffSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const outcome = await proposeOrCreateStaff(await getDb(), staff, input, requestId);
    if (outcome.status === "pending") return { status: "pending" as const, approvalId: outcome.approvalId };
    const { member, temporaryPassword } = outcome.result;
    return { status: "created" as const, userId: member.userId, username: member.username, temporaryPassword: temporaryPassword ?? "" };
  },
);

export const updateStaffAction = defineAction(
  { name: "staff.update", schema: updateStaffSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const outcome = await proposeOrUpdateStaff(await getDb(), staff, input, requestId);
    if (outcome.status === "pending") return { status: "pending" as const, approvalId: outcome.approvalId };
    return { status: "saved" as const, userId: outcome.result.userId };
  },
);

export const setStaffDisabledAction = defineAction(
  { name: "staff.set_disabled", schema: setStaffDisabledSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const member = await setStaffDisabled(await getDb(), staff, input.userId, input.isDisabled, requestId);
    return { userId: member.userId, isDisabled: member.disabledAt !== null };
  },
);

export const resetPasswordAction = defineAction(
  { name: "staff.password_reset", schema: resetPasswordSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const { temporaryPassword, member } = await resetStaffPassword(await getDb(), staff, input.userId, requestId);
    return { username: member.username, temporaryPassword };
  },
);

export const approveRoleChangeAction = defineAction(
  { name: "staff.approval_approve", schema: roleApprovalDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const { member, temporaryPassword } = await approveRoleApproval(await getDb(), staff, input.approvalId, requestId);
    return { userId: member.userId, username: member.username, temporaryPassword: temporaryPassword ?? "" };
  },
);

export const rejectRoleChangeAction = defineAction(
  { name: "staff.approval_reject", schema: roleApprovalDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await rejectRoleApproval(await getDb(), staff, input.approvalId, requestId);
    return { approvalId: input.approvalId };
  },
);

export const cancelRoleChangeAction = defineAction(
  { name: "staff.approval_cancel", schema: roleApprovalDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await cancelRoleApproval(await getDb(), staff, input.approvalId, requestId);
    return { approvalId: input.approvalId };
  },
);

/** A lost authenticator or passkey: one administrator proposes removing them, a second applies it. */
export const proposeSecondFactorResetAction = defineAction(
  { name: "staff.second_factor_reset_propose", schema: secondFactorResetProposalSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => ({ resetId: await proposeSecondFactorReset(await getDb(), staff, input.userId, input.reason, requestId) }),
);

export const approveSecondFactorResetAction = defineAction(
  { name: "staff.second_factor_reset_approve", schema: secondFactorResetDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => approveSecondFactorReset(await getDb(), staff, input.resetId, requestId),
);

export const rejectSecondFactorResetAction = defineAction(
  { name: "staff.second_factor_reset_reject", schema: secondFactorResetDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await rejectSecondFactorReset(await getDb(), staff, input.resetId, requestId);
    return { resetId: input.resetId };
  },
);

export const cancelSecondFactorResetAction = defineAction(
  { name: "staff.second_factor_reset_cancel", schema: secondFactorResetDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await cancelSecondFactorReset(await getDb(), staff, input.resetId, requestId);
    return { resetId: input.resetId };
  },
);
