import "server-only";
import { sql } from "drizzle-orm";
import { alertRoutingCondition, caseRoutingCondition, type CaseViewer } from "@/lib/compliance/case-routing";
import type { DbExecutor } from "@/lib/db/types";
import { RULE_KEYS, type RuleKey } from "./rules";

/**
 * Per-rule figures for tuning (ADR 0046), over a date range:
 * - fire rate: the rule's hits (an alert opened or extended; live and shadow apart) on alerts first
 *   raised in the range, per 1 000 tokens created in the range;
 * - false positives: of the decided cases holding a live alert of the rule that were decided in
 *   the range, the share cleared (a person found nothing) rather than escalated and reported or not.
 * Counts only, no subject, no branch — and only of the alerts and cases routed to the reader
 * (lib/compliance/case-routing.ts): a head-office supervisor's own staff case is not a hit of rule 8
 * on their page, so the figures can tip nobody off (ADR 0050).
 */

export type RuleFigure = {
  ruleKey: RuleKey;
  liveHits: number;
  shadowHits: number;
  /** Live and shadow hits per 1 000 tokens; null with no token in the range. */
  livePerThousand: number | null;
  shadowPerThousand: number | null;
  decidedCases: number;
  clearedCases: number;
  /** clearedCases / decidedCases; null when none was decided. */
  falsePositiveShare: number | null;
};

export type RuleFigures = { from: string; to: string; tokens: number; rules: RuleFigure[] };

type HitRow = { rule_key: string; mode: string; hits: number };
type CaseRow = { rule_key: string; decided: number; cleared: number };

const perThousand = (count: number, tokens: number) => (tokens === 0 ? null : Math.round((count / tokens) * 10_000) / 10);

export async function readRuleFigures(db: DbExecutor, viewer: CaseViewer, range: { from: Date; to: Date }): Promise<RuleFigures> {
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const tokenRows = (await db.execute(
    sql`select count(*)::int as total from token_requests where created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz`,
  )) as unknown as { rows: { total: number }[] };
  const tokens = Number(tokenRows.rows[0]?.total ?? 0);
  const hitRows = (await db.execute(sql`
    select rule_key, mode::text as mode, coalesce(sum(hits), 0)::int as hits
      from risk_alerts
     where first_hit_at >= ${from}::timestamptz and first_hit_at < ${to}::timestamptz and ${alertRoutingCondition(viewer)}
     group by rule_key, mode`)) as unknown as { rows: HitRow[] };
  // A case with two alerts of one rule counts once for it.
  const caseRows = (await db.execute(sql`
    select per_rule.rule_key, count(*)::int as decided, count(*) filter (where per_rule.state = 'cleared')::int as cleared
      from (select distinct risk_alerts.rule_key, risk_cases.id, risk_cases.state::text as state
              from risk_alerts join risk_cases on risk_cases.id = risk_alerts.case_id
             where risk_alerts.mode = 'live' and risk_cases.decided_at >= ${from}::timestamptz and risk_cases.decided_at < ${to}::timestamptz
               and risk_cases.state in ('cleared', 'reported', 'not_reported') and ${caseRoutingCondition(viewer)}) per_rule
     group by per_rule.rule_key`)) as unknown as { rows: CaseRow[] };
  const rules = RULE_KEYS.map((ruleKey): RuleFigure => {
    const hitsOf = (mode: string) => Number(hitRows.rows.find((row) => row.rule_key === ruleKey && row.mode === mode)?.hits ?? 0);
    const cases = caseRows.rows.find((row) => row.rule_key === ruleKey);
    const decidedCases = Number(cases?.decided ?? 0);
    const clearedCases = Number(cases?.cleared ?? 0);
    const liveHits = hitsOf("live");
    const shadowHits = hitsOf("shadow");
    return {
      ruleKey,
      liveHits,
      shadowHits,
      livePerThousand: perThousand(liveHits, tokens),
      shadowPerThousand: perThousand(shadowHits, tokens),
      decidedCases,
      clearedCases,
      falsePositiveShare: decidedCases === 0 ? null : Math.round((clearedCases / decidedCases) * 1000) / 1000,
    };
  });
  return { from, to, tokens, rules };
}
