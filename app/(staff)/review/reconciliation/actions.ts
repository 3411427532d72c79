"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions";
import { assertInBranchScope } from "@/lib/auth/branch-scope";
import { recordAuditEvent } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { reviewAuditActions } from "@/lib/review/audit-actions";
import { branchDaySubject, signOffBranchDay } from "@/lib/review/reconciliation";
import { signOffSchema } from "@/lib/review/sign-off-schema";

const branchDaySchema = z.object({ branchId: z.string().uuid(), day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });

/** Records that a branch's day sheet was printed for sign-off, and by whom. */
export const recordReconciliationPrintedAction = defineAction(
  {
    name: "review.reconciliation_printed",
    schema: branchDaySchema,
    permission: REVIEW_PERMISSION,
    authorize: ({ input, scope }) => assertInBranchScope(scope, input.branchId, "branch"),
  },
  async ({ input, staff, requestId }) => {
    await recordAuditEvent({
      action: reviewAuditActions.reconciliationPrinted,
      actor: { userId: staff.userId, username: staff.username },
      subject: branchDaySubject(input.branchId, input.day),
      branchId: input.branchId,
      details: { day: input.day },
      requestId,
    });
    return { recorded: true };
  },
);

/**
 * Signs the day off on screen (lib/review/reconciliation.ts): a day that has ended, not before the
 * branch's first token; the figures recounted on the server, a note when tokens are left to follow up.
 */
export const signOffReconciliationAction = defineAction(
  {
    name: "review.reconciliation_signed_off",
    schema: signOffSchema,
    permission: REVIEW_PERMISSION,
    authorize: ({ input, scope }) => assertInBranchScope(scope, input.branchId, "branch"),
  },
  async ({ input, staff, scope, requestId }) => signOffBranchDay(await getDb(), { staff, scope, requestId }, input),
);
