import "server-only";
import { eq, inArray, sql } from "drizzle-orm";
import { bankDayOf } from "@/lib/bank-time";
import { branches, tokenRequests } from "@/lib/db/schema";
import { caseRoutingCondition, isCaseRoutedTo, type CaseViewer } from "@/lib/compliance/case-routing";
import type { DbExecutor } from "@/lib/db/types";
import { evaluateRules, type RuleHit } from "./evaluate";
import { maskedTokenColumns, toMaskedToken, type MaskedToken } from "./masked-tokens";
import type { RuleVersion } from "./rules";

/**
 * A rule version run read-only over a date range (ADR 0046): the same evaluation the live loop
 * runs, inside a READ ONLY transaction, so a backtest can neither make an alert nor change a row.
 * Its hits and past cases are routed as cases are (lib/compliance/case-routing.ts): the one who runs
 * it never sees a hit, a count or a past case about themselves (ADR 0050).
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
    /** `YYYY-MM-DD|branch id` → alerts that bank day at that branch (the first trigger of a subject that day). */
    alertsPerBranchDay: Record<string, number>;
    sampleTokenIds: string[];
    /** How the live cases of this rule whose alert opened in the range would have gone under this version. */
    pastCases: PastCaseReplay;
  }[];
  hits: RuleHit[];
};

/**
 * The rule's past cases replayed: a case counts when a live alert of the rule opened in the range
 * and joined it. "Still raised": this version hits the case's subject in the range too; "avoided":
 * it does not. A case cleared is one a person judged a false positive; reported is one they did not.
 */
export type PastCaseReplay = {
  considered: number;
  stillRaised: number;
  avoided: number;
  cleared: { stillRaised: number; avoided: number };
  reported: { stillRaised: number; avoided: number };
  /** Each case (at most 50, oldest first), for the page to link. */
  cases: { caseId: string; state: string; subjectLabel: string; stillRaised: boolean }[];
};

type PastCaseRow = { rule_key: string; case_id: string; subject_type: string; subject_key: string; subject_label: string; state: string; opened_at: string };

async function pastCasesOf(tx: DbExecutor, viewer: CaseViewer, ruleKeys: readonly string[], range: { from: Date; to: Date }): Promise<PastCaseRow[]> {
  if (ruleKeys.length === 0) return [];
  const result = (await tx.execute(sql`
    select distinct risk_alerts.rule_key, risk_cases.id as case_id, risk_cases.subject_type, risk_cases.subject_key, risk_cases.subject_label,
           risk_cases.state::text as state, risk_cases.opened_at::text as opened_at
      from risk_alerts join risk_cases on risk_cases.id = risk_alerts.case_id
     where risk_alerts.mode = 'live' and ${caseRoutingCondition(viewer)}
       and risk_alerts.first_hit_at >= ${range.from.toISOString()}::timestamptz and risk_alerts.first_hit_at < ${range.to.toISOString()}::timestamptz
       and risk_alerts.rule_key in (${sql.join(
         ruleKeys.map((key) => sql`${key}`),
         sql`, `,
       )})
     order by opened_at, case_id`)) as unknown as { rows: PastCaseRow[] };
  return result.rows;
}

export function replayPastCases(cases: readonly PastCaseRow[], ruleHits: readonly Pick<RuleHit, "subjectType" | "subjectKey">[]): PastCaseReplay {
  const hit = new Set(ruleHits.map((one) => `${one.subjectType}|${one.subjectKey}`));
  const replay: PastCaseReplay = { considered: 0, stillRaised: 0, avoided: 0, cleared: { stillRaised: 0, avoided: 0 }, reported: { stillRaised: 0, avoided: 0 }, cases: [] };
  for (const one of cases) {
    const stillRaised = hit.has(`${one.subject_type}|${one.subject_key}`);
    const side = stillRaised ? "stillRaised" : "avoided";
    replay.considered += 1;
    replay[side] += 1;
    if (one.state === "cleared") replay.cleared[side] += 1;
    if (one.state === "reported") replay.reported[side] += 1;
    if (replay.cases.length < 50) replay.cases.push({ caseId: one.case_id, state: one.state, subjectLabel: one.subject_label, stillRaised });
  }
  return replay;
}

export async function runBacktest(db: DbExecutor, viewer: CaseViewer, rules: readonly RuleVersion[], range: { from: Date; to: Date }): Promise<BacktestReport> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set transaction read only`);
    const counted = (await tx.execute(
      sql`select count(*)::int as total from token_requests where created_at >= ${range.from.toISOString()}::timestamptz and created_at < ${range.to.toISOString()}::timestamptz`,
    )) as unknown as { rows: { total: number }[] };
    const tokensEvaluated = Number(counted.rows[0]?.total ?? 0);
    // A hit is what a case would be: routed as its case would be, before anything is counted.
    const hits = (await evaluateRules(tx, rules, { from: range.from, to: range.to })).filter((hit) =>
      isCaseRoutedTo(viewer, { subjectType: hit.subjectType, subjectUserId: hit.subjectUserId, routeBranchId: hit.subjectType === "staff" ? null : hit.latestBranchId }),
    );
    const pastCases = await pastCasesOf(tx, viewer, [...new Set(rules.map((rule) => rule.ruleKey))], range);
    const perRule = rules.map((rule) => {
      const ruleHits = hits.filter((hit) => hit.rule.id === rule.id);
      const tokens = new Set(ruleHits.flatMap((hit) => hit.tokenIds));
      const triggers = ruleHits.reduce((sum, hit) => sum + hit.triggers.length, 0);
      const alertsPerBranchDay: Record<string, number> = {};
      for (const hit of ruleHits) {
        const days = new Set<string>();
        for (const trigger of hit.triggers) {
          const key = `${bankDayOf(new Date(trigger.atMs))}|${trigger.branchId ?? "none"}`;
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
        pastCases: replayPastCases(
          pastCases.filter((one) => one.rule_key === rule.ruleKey),
          ruleHits,
        ),
      };
    });
    return { from: range.from.toISOString(), to: range.to.toISOString(), tokensEvaluated, perRule, hits };
  });
}

export type SampleToken = MaskedToken;

/** What a page shows of a backtest besides its counts: the sample tokens, masked, and the branches' names. */
export async function describeBacktest(db: DbExecutor, report: BacktestReport): Promise<{ samples: Map<string, SampleToken>; branchNames: Map<string, string> }> {
  const tokenIds = [...new Set(report.perRule.flatMap((rule) => rule.sampleTokenIds))];
  const rows =
    tokenIds.length === 0
      ? []
      : await db.select(maskedTokenColumns).from(tokenRequests).innerJoin(branches, eq(branches.id, tokenRequests.branchId)).where(inArray(tokenRequests.id, tokenIds));
  const samples = new Map(rows.map((row) => [row.id, toMaskedToken(row)]));
  const branchIds = [...new Set(report.perRule.flatMap((rule) => Object.keys(rule.alertsPerBranchDay).map((key) => key.split("|")[1]!)))].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  const named = branchIds.length === 0 ? [] : await db.select({ id: branches.id, name: branches.name }).from(branches).where(inArray(branches.id, branchIds));
  return { samples, branchNames: new Map(named.map((branch) => [branch.id, branch.name])) };
}
