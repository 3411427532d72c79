"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions";
import { verifyAndRecordAuditChain } from "@/lib/audit/verify";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/**
 * Recomputes the audit trail's hash chain and records the check. Only for those who read every
 * branch (it reads the whole trail): head office and administrators.
 */
export const verifyAuditTrailAction = defineAction(
  {
    name: "audit.chain_verified",
    schema: z.object({}),
    permission: "audit.read",
    authorize: ({ scope }) => {
      if (scope.kind !== "all") throw new AppError("FORBIDDEN", "verifying the chain reads every branch's events");
    },
  },
  async ({ staff, requestId }) => verifyAndRecordAuditChain(await getDb(), {
      actor: { userId: staff.userId, username: staff.username },
      branchId: staff.branch.id,
      requestId,
    }),
);
