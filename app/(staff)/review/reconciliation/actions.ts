"use server";

import { defineAction } from "@/lib/actions";
import { assertInBranchScope } from "@/lib/auth/branch-scope";
import { getDb } from "@/lib/db/client";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { recordSheetPrinted, signOffBranchDay } from "@/lib/review/reconciliation";
import { sheetPrintedSchema, signOffSchema } from "@/lib/review/sign-off-schema";

/** Records that a branch's day sheet was printed for sign-off, and by whom (a real day that has begun). */
export const recordReconciliationPrintedAction = defineAction(
  {
    name: "review.reconciliation_printed",
    schema: sheetPrintedSchema,
    permission: REVIEW_PERMISSION,
    authorize: ({ input, scope }) => assertInBranchScope(scope, input.branchId, "branch"),
  },
  async ({ input, staff, scope, requestId }) => {
    await recordSheetPrinted(await getDb(), { staff, scope, requestId }, input);
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
