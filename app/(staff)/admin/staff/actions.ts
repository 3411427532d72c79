"use server";

import { defineAction } from "@/lib/actions";
import { createStaffSchema, resetPasswordSchema, setStaffDisabledSchema, updateStaffSchema } from "@/lib/staff/schemas";
import { createStaffAccount, resetStaffPassword, setStaffDisabled, updateStaffAccount } from "@/lib/staff/service";

/** Staff administration. Every change is audited by lib/staff (before/after for role and branch). */

export const createStaff = defineAction(
  { name: "staff.create", schema: createStaffSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const { member, temporaryPassword } = await createStaffAccount(staff, input, requestId);
    return { userId: member.userId, username: member.username, temporaryPassword: temporaryPassword ?? "" };
  },
);

export const updateStaff = defineAction(
  { name: "staff.update", schema: updateStaffSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const member = await updateStaffAccount(staff, input, requestId);
    return { userId: member.userId };
  },
);

export const setStaffDisabledState = defineAction(
  { name: "staff.set_disabled", schema: setStaffDisabledSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const member = await setStaffDisabled(staff, input.userId, input.isDisabled, requestId);
    return { userId: member.userId, isDisabled: member.disabledAt !== null };
  },
);

export const resetPassword = defineAction(
  { name: "staff.password_reset", schema: resetPasswordSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const { temporaryPassword, member } = await resetStaffPassword(staff, input.userId, requestId);
    return { username: member.username, temporaryPassword };
  },
);
