"use server";

import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { canManageRules, decideRuleVersion, proposeRuleVersion } from "@/lib/risk/rule-versions";
import { ruleDecisionSchema, ruleProposalSchema } from "@/lib/risk/rule-schemas";
import type { Staff } from "@/lib/auth/types";

/**
 * Rule changes are head office's (the risk permission over every branch): refused before the
 * input is read, so a branch supervisor learns "not allowed", not the form's shape.
 */
async function headOfficeOnly<Raw>(raw: Raw, { staff }: { staff: Staff }): Promise<Raw> {
  if (!canManageRules(staff.role)) throw new AppError("FORBIDDEN", "rule changes are head office's");
  return raw;
}

/** A new version of a rule, pending until a second person approves it (audited in lib/risk). */
export const proposeRuleVersionAction = defineAction(
  { name: "risk.rule_propose", schema: ruleProposalSchema, permission: "risk.cases", prepareInput: headOfficeOnly },
  async ({ input, staff }) => {
    const created = await proposeRuleVersion(await getDb(), staff, input);
    return { versionId: created.id, version: created.version };
  },
);

/** Approves or rejects a pending version; never the proposer's to decide (lib/risk refuses them). */
export const decideRuleVersionAction = defineAction(
  { name: "risk.rule_decide", schema: ruleDecisionSchema, permission: "risk.cases", prepareInput: headOfficeOnly },
  async ({ input, staff }) => {
    const decided = await decideRuleVersion(await getDb(), staff, input.versionId, input.approve);
    return { status: decided.status, version: decided.version };
  },
);
