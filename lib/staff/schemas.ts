import { z } from "zod";
import { STAFF_ROLES } from "@/lib/domain/staff-roles";
import { usernameSchema } from "@/lib/auth/username";

/** The staff and branch forms' inputs, shared by the admin forms (client) and their actions (server). */

const nameSchema = z.string().trim().min(2, "Enter the full name (at least 2 characters).").max(80, "At most 80 characters.");
const roleSchema = z.enum(STAFF_ROLES, { error: "Choose a role." });
const branchIdSchema = z.uuid({ error: "Choose a branch." });
const userIdSchema = z.string().min(1).max(64);

export const createStaffSchema = z.object({
  username: usernameSchema,
  name: nameSchema,
  role: roleSchema,
  branchId: branchIdSchema,
});

export const updateStaffSchema = z.object({
  userId: userIdSchema,
  name: nameSchema,
  role: roleSchema,
  branchId: branchIdSchema,
});

export const setStaffDisabledSchema = z.object({ userId: userIdSchema, isDisabled: z.boolean() });

export const resetPasswordSchema = z.object({ userId: userIdSchema });

/** Approve, reject or cancel a proposed role grant (ADR 0020). */
export const roleApprovalDecisionSchema = z.object({ approvalId: z.uuid() });

/** Removing someone's lost second factors: proposed with how the person was identified, then decided. */
export const secondFactorResetProposalSchema = z.object({
  userId: userIdSchema,
  reason: z
    .string()
    .trim()
    .min(10, "Say how you checked it is them, in a few words (at least 10 characters).")
    .max(500, "Keep the reason under 500 characters."),
});
export const secondFactorResetDecisionSchema = z.object({ resetId: z.uuid() });

export const branchCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,6}$/, "Use 2 to 6 letters or digits, e.g. KUM.");

const branchNameSchema = z.string().trim().min(3, "Enter the branch name (at least 3 characters).").max(80, "At most 80 characters.");

export const createBranchSchema = z.object({ code: branchCodeSchema, name: branchNameSchema });

export const renameBranchSchema = z.object({ branchId: branchIdSchema, name: branchNameSchema });

export type CreateStaffInput = z.output<typeof createStaffSchema>;
export type UpdateStaffInput = z.output<typeof updateStaffSchema>;
