"use server";

import { defineAction } from "@/lib/actions";
import { createBranchSchema, renameBranchSchema } from "@/lib/staff/schemas";
import { createBranch as createBranchRecord, renameBranch as renameBranchRecord } from "@/lib/staff/branches";

export const createBranchAction = defineAction(
  { name: "branch.create", schema: createBranchSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const branch = await createBranchRecord(staff, input, requestId);
    return { branchId: branch.id, code: branch.code };
  },
);

export const renameBranchAction = defineAction(
  { name: "branch.rename", schema: renameBranchSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const branch = await renameBranchRecord(staff, input, requestId);
    return { branchId: branch.id, name: branch.name };
  },
);
