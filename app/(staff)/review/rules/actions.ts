"use server";

import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { decideRuleVersion, proposeRuleVersion } from "@/lib/risk/rule-versions";
import { ruleDecisionSchema, ruleProposalSchema } from "@/lib/risk/rule-schemas";

/*
 * Rule changes are head office's: declared `head_office_only` in lib/auth/sensitive-changes.ts,
 * so defineAction refuses anyone else before the input is read (a branch supervisor learns "not
 * allowed", not the form's shape).
 */

/** A new version of a rule, pending until a second person approves it (audited in lib/risk). */
export const proposeRuleVersionAction = defineAction(
  { name: "risk.rule_propose", schema: ruleProposalSchema, permission: "risk.cases" },
  async ({ input, staff }) => {
    const created = await proposeRuleVersion(await getDb(), staff, input);
    return { versionId: created.id, version: created.version };
  },
);

/** Approves or rejects a pending version; never the proposer's to decide (lib/risk refuses them). */
export const decideRuleVersionAction = defineAction(
  { name: "risk.rule_decide", schema: ruleDecisionSchema, permission: "risk.cases" },
  async ({ input, staff }) => {
    const decided = await decideRuleVersion(await getDb(), staff, input.versionId, input.approve);
    return { status: decided.status, version: decided.version };
  },
);
