"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions";
import { assertInBranchScope } from "@/lib/auth/branch-scope";
import { recordAuditEvent } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { reviewAuditActions } from "@/lib/review/audit-actions";
import { branchDaySubject, buildReconciliation } from "@/lib/review/reconciliation";
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
 * Signs the day off on screen: the audit trail is the record (who, when, the figures they saw,
 * their note). The figures are recounted here, never taken from the browser; tokens left to follow
 * up need a note saying what was done about them.
 */
export const signOffReconciliationAction = defineAction(
  {
    name: "review.reconciliation_signed_off",
    schema: signOffSchema,
    permission: REVIEW_PERMISSION,
    authorize: ({ input, scope }) => assertInBranchScope(scope, input.branchId, "branch"),
  },
  async ({ input, staff, scope, requestId }) => {
    const db = await getDb();
    const sheet = await buildReconciliation(db, scope, { day: input.day, branch: input.branchId });
    const followUp = sheet.followUp.length;
    if (followUp > 0 && input.note === "") {
      throw new AppError("VALIDATION", "sign-off without a note while tokens are left to follow up", {
        fieldErrors: { note: [`${followUp} token${followUp === 1 ? " is" : "s are"} listed to follow up: say what was done about ${followUp === 1 ? "it" : "them"}.`] },
      });
    }
    const { total } = sheet;
    await recordAuditEvent({
      action: reviewAuditActions.reconciliationSignedOff,
      actor: { userId: staff.userId, username: staff.username },
      subject: branchDaySubject(input.branchId, input.day),
      branchId: input.branchId,
      details: {
        day: input.day,
        requests: total.requests,
        successful: total.successful,
        failed: total.failed,
        expired: total.expired,
        invalid: total.invalid,
        open: total.open,
        outcomeUnknown: total.outcomeUnknown,
        notIssued: total.notIssued,
        followUp,
        note: input.note,
      },
      requestId,
    }, db);
    return { signedByName: staff.name, signedAt: new Date().toISOString() };
  },
);
