"use server";

import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { createBranchSchema, renameBranchSchema } from "@/lib/staff/schemas";
import { createBranch as createBranchRecord, renameBranch as renameBranchRecord } from "@/lib/staff/branches";

export const createBranchAction = defineAction(
  { name: "branch.create", schema: createBranchSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const branch = await createBranchRecord(await getDb(), staff, input, requestId);
    return { branchId: branch.id, code: branch.code };
  },
);

export const renameBranchAction = defineAction(
  { name: "branch.rename", schema: renameBranchSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const branch = await renameBranchRecord(await getDb(), staff, input, requestId);
    return { branchId: branch.id, name: branch.name };
  },
);
