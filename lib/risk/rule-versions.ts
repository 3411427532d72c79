import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { riskRuleVersions, type RiskRuleVersion } from "@/lib/db/schema";
import { isRuleKey, type RuleVersion } from "./rules";

export function toRuleVersion(row: RiskRuleVersion): RuleVersion | null {
  if (!isRuleKey(row.ruleKey)) return null;
  return { id: row.id, ruleKey: row.ruleKey, version: row.version, params: row.params, severity: row.severity, mode: row.mode, activeFrom: row.approvedAt };
}

/** The versions in force, one per rule (pending, retired and rejected ones never run live). */
export async function loadActiveRules(db: DbExecutor): Promise<RuleVersion[]> {
  const found = await db.select().from(riskRuleVersions).where(eq(riskRuleVersions.status, "active")).orderBy(asc(riskRuleVersions.ruleKey));
  return found.map(toRuleVersion).filter((rule): rule is RuleVersion => rule !== null);
}

/** Versions by id, whatever their status: what a backtest of a pending version runs. */
export async function loadRuleVersions(db: DbExecutor, ids: readonly string[]): Promise<RuleVersion[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select()
    .from(riskRuleVersions)
    .where(and(inArray(riskRuleVersions.id, [...ids])))
    .orderBy(asc(riskRuleVersions.ruleKey), asc(riskRuleVersions.version));
  return found.map(toRuleVersion).filter((rule): rule is RuleVersion => rule !== null);
}
