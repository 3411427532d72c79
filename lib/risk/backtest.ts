import "server-only";
import { sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { evaluateRules, type RuleHit } from "./evaluate";
import type { RuleVersion } from "./rules";

/**
 * A rule version run read-only over a date range (ADR 0046): the same evaluation the live loop
 * runs, inside a READ ONLY transaction, so a backtest can neither make an alert nor change a row.
 */

export type BacktestReport = {
  from: string;
  to: string;
  tokensEvaluated: number;
  perRule: {
    ruleKey: string;
    version: number;
    mode: string;
    subjects: number;
    matchedTokens: number;
    triggers: number;
    /** Triggers per 1 000 tokens evaluated. */
    firePerThousand: number;
    /** `YYYY-MM-DD|branch id` → alerts that day at that branch (the first trigger of a subject that day). */
    alertsPerBranchDay: Record<string, number>;
    sampleTokenIds: string[];
  }[];
  hits: RuleHit[];
};

export async function runBacktest(db: DbExecutor, rules: readonly RuleVersion[], range: { from: Date; to: Date }): Promise<BacktestReport> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set transaction read only`);
    const counted = (await tx.execute(
      sql`select count(*)::int as total from token_requests where created_at >= ${range.from.toISOString()}::timestamptz and created_at < ${range.to.toISOString()}::timestamptz`,
    )) as unknown as { rows: { total: number }[] };
    const tokensEvaluated = Number(counted.rows[0]?.total ?? 0);
    const hits = await evaluateRules(tx, rules, { from: range.from, to: range.to });
    const perRule = rules.map((rule) => {
      const ruleHits = hits.filter((hit) => hit.rule.id === rule.id);
      const tokens = new Set(ruleHits.flatMap((hit) => hit.tokenIds));
      const triggers = ruleHits.reduce((sum, hit) => sum + hit.triggers.length, 0);
      const alertsPerBranchDay: Record<string, number> = {};
      for (const hit of ruleHits) {
        const days = new Set<string>();
        for (const trigger of hit.triggers) {
          const key = `${new Date(trigger.atMs).toISOString().slice(0, 10)}|${trigger.branchId ?? "none"}`;
          if (days.has(key)) continue;
          days.add(key);
          alertsPerBranchDay[key] = (alertsPerBranchDay[key] ?? 0) + 1;
        }
      }
      return {
        ruleKey: rule.ruleKey,
        version: rule.version,
        mode: rule.mode,
        subjects: ruleHits.length,
        matchedTokens: tokens.size,
        triggers,
        firePerThousand: tokensEvaluated === 0 ? 0 : Math.round((triggers / tokensEvaluated) * 1000 * 10) / 10,
        alertsPerBranchDay,
        sampleTokenIds: [...tokens].sort().slice(0, 10),
      };
    });
    return { from: range.from.toISOString(), to: range.to.toISOString(), tokensEvaluated, perRule, hits };
  });
}
