"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions";
import { assertInBranchScope } from "@/lib/auth/branch-scope";
import { recordAuditEvent } from "@/lib/audit";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { reviewAuditActions } from "@/lib/review/audit-actions";

/** Records that a branch's day sheet was printed for sign-off, and by whom. */
export const recordReconciliationPrintedAction = defineAction(
  {
    name: "review.reconciliation_printed",
    schema: z.object({ branchId: z.string().uuid(), day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
    permission: REVIEW_PERMISSION,
    authorize: ({ input, scope }) => assertInBranchScope(scope, input.branchId, "branch"),
  },
  async ({ input, staff, requestId }) => {
    await recordAuditEvent({
      action: reviewAuditActions.reconciliationPrinted,
      actor: { userId: staff.userId, username: staff.username },
      subject: { type: "branch_day", id: `${input.branchId}:${input.day}` },
      branchId: input.branchId,
      details: { day: input.day },
      requestId,
    });
    return { recorded: true };
  },
);
