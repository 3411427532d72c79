import type { z } from "zod";
import type { ActionResult } from "@/lib/actions/result";
import type {
  createBranchSchema,
  createStaffSchema,
  renameBranchSchema,
  resetPasswordSchema,
  roleApprovalDecisionSchema,
  secondFactorResetDecisionSchema,
  secondFactorResetProposalSchema,
  setStaffDisabledSchema,
  updateStaffSchema,
} from "@/lib/staff/schemas";

/**
 * The shapes of the staff and branch server actions (app/(staff)/admin/{staff,branches}/actions.ts).
 * Their pages pass the actions down as props: a client component does not import app/.
 */
type Action<Schema extends z.ZodType, Data> = (input: z.input<Schema>) => Promise<ActionResult<Data>>;

export type CreateStaffAction = Action<
  typeof createStaffSchema,
  { status: "pending"; approvalId: string } | { status: "created"; userId: string; username: string; temporaryPassword: string }
>;
export type UpdateStaffAction = Action<typeof updateStaffSchema, { status: "pending"; approvalId: string } | { status: "saved"; userId: string }>;
export type SetStaffDisabledAction = Action<typeof setStaffDisabledSchema, { userId: string; isDisabled: boolean }>;
export type ResetPasswordAction = Action<typeof resetPasswordSchema, { username: string; temporaryPassword: string }>;
export type ApproveRoleChangeAction = Action<typeof roleApprovalDecisionSchema, { userId: string; username: string; temporaryPassword: string }>;
export type DecideRoleChangeAction = Action<typeof roleApprovalDecisionSchema, { approvalId: string }>;
export type CreateBranchAction = Action<typeof createBranchSchema, { branchId: string; code: string }>;
export type RenameBranchAction = Action<typeof renameBranchSchema, { branchId: string; name: string }>;
export type ProposeSecondFactorResetAction = Action<typeof secondFactorResetProposalSchema, { resetId: string }>;
export type ApproveSecondFactorResetAction = Action<typeof secondFactorResetDecisionSchema, { username: string }>;
export type DecideSecondFactorResetAction = Action<typeof secondFactorResetDecisionSchema, { resetId: string }>;
