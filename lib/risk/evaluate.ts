import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { maskIdNumber } from "@/lib/pii/mask";
import { paramsOf, ruleOf, thresholdWords, type RuleVersion, type SubjectFilter, type SubjectType } from "./rules";
import { at, inList } from "./rules/define-rule";

/**
 * The one evaluation of the risk rules (ADR 0046): each rule's read-only SQL (its own file under
 * lib/risk/rules/, ADR 0061) over the blind indexes, the masked copies and the audit trail — never
 * a decrypted value — that PGlite and PostgreSQL run alike. The live evaluator calls it for the subjects that just changed and the backtest for a
 * whole date range, so a backtest is exactly what the rule would have done.
 *
 * A "trigger" is the token (or audit event) that completes a pattern: every rule looks back from
 * each trigger inside [from, to) over its window (which may reach before `from`). The hits of one
 * rule on one subject are merged into one hit, as the alert they make is one.
 */

export type RuleHit = {
  rule: RuleVersion;
  subjectType: SubjectType;
  subjectKey: string;
  /** Masked: `GHA-•••••789-0`, `024 ••• 4567`, a username. */
  subjectLabel: string;
  tokenIds: string[];
  auditEventIds: number[];
  counts: Record<string, number>;
  /** Each trigger: when, and at which branch (the token's, or the actor's), for per-branch-per-day figures. */
  triggers: { atMs: number; branchId: string | null }[];
  firstAtMs: number;
  lastAtMs: number;
  /** The branch of the subject's latest matched token (customer subjects): who the case goes to. */
  latestBranchId: string | null;
  /** The staff member concerned (staff subjects). */
  subjectUserId: string | null;
  sentence: string;
  /** The version's severity, or what the rule raises it to for this hit (rule 2: a success from elsewhere). */
  severity: RuleVersion["severity"];
};

type Row = Record<string, unknown>;

async function rows<T = Row>(db: DbExecutor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

type TriggerRow = { subject: string; at_ms: number; branch_id: string | null; token_ids: string | null; audit_ids: string | null; first_ms: number } & Record<string, unknown>;

type PartialHit = Omit<RuleHit, "subjectLabel" | "sentence" | "latestBranchId" | "subjectUserId" | "severity">;

/** Merges trigger rows per subject into hits; `counters` names the counters to keep (the maximum over triggers). */
function mergeTriggers(rule: RuleVersion, found: TriggerRow[], counters: readonly string[]): Map<string, PartialHit> {
  const bySubject = new Map<string, PartialHit>();
  for (const row of found) {
    let hit = bySubject.get(row.subject);
    if (!hit) {
      hit = { rule, subjectType: ruleOf(rule.ruleKey).subject, subjectKey: row.subject, tokenIds: [], auditEventIds: [], counts: {}, triggers: [], firstAtMs: Number(row.first_ms), lastAtMs: Number(row.at_ms) };
      bySubject.set(row.subject, hit);
    }
    for (const id of row.token_ids ? row.token_ids.split(",") : []) if (!hit.tokenIds.includes(id)) hit.tokenIds.push(id);
    for (const id of row.audit_ids ? row.audit_ids.split(",").map(Number) : []) if (!hit.auditEventIds.includes(id)) hit.auditEventIds.push(id);
    for (const name of counters) hit.counts[name] = Math.max(hit.counts[name] ?? 0, Number(row[name] ?? 0));
    hit.triggers.push({ atMs: Number(row.at_ms), branchId: row.branch_id });
    hit.firstAtMs = Math.min(hit.firstAtMs, Number(row.first_ms));
    hit.lastAtMs = Math.max(hit.lastAtMs, Number(row.at_ms));
  }
  for (const hit of bySubject.values()) {
    hit.tokenIds.sort();
    hit.auditEventIds.sort((a, b) => a - b);
    hit.triggers.sort((a, b) => a.atMs - b.atMs);
  }
  return bySubject;
}

export type EvaluateOptions = {
  from: Date;
  to: Date;
  /** Only these subjects (the live evaluator's changed ones); all when absent (the backtest). */
  subjects?: SubjectFilter;
  /** Live: no hit from before a version was approved (a new version never alerts on the past). */
  respectActiveFrom?: boolean;
};

export async function evaluateRules(db: DbExecutor, rules: readonly RuleVersion[], options: EvaluateOptions): Promise<RuleHit[]> {
  const hits: RuleHit[] = [];
  for (const rule of rules) {
    if (rule.mode === "off") continue;
    const descriptor = ruleOf(rule.ruleKey);
    const from = options.respectActiveFrom && rule.activeFrom && rule.activeFrom > options.from ? rule.activeFrom : options.from;
    if (from >= options.to) continue;
    const found: TriggerRow[] = [];
    for (const query of descriptor.triggerQueries(paramsOf(rule), { from, to: options.to }, options.subjects ?? {})) found.push(...(await rows<TriggerRow>(db, query)));
    const merged = mergeTriggers(rule, found, descriptor.counters);
    if (merged.size === 0) continue;
    const labels = await subjectFacts(db, descriptor.subject, [...merged.keys()], options.to);
    for (const partial of merged.values()) {
      const facts = labels.get(partial.subjectKey) ?? { label: "(erased)", latestBranchId: null, branches: 0 };
      const severity = descriptor.severityOf?.(partial.counts, rule.severity) ?? rule.severity;
      const hit: RuleHit = { ...partial, subjectLabel: facts.label, latestBranchId: facts.latestBranchId, subjectUserId: partial.subjectType === "staff" ? partial.subjectKey : null, sentence: "", severity };
      hit.sentence = sentenceOf(hit);
      hits.push(hit);
    }
  }
  return hits.sort((a, b) => a.rule.ruleKey.localeCompare(b.rule.ruleKey) || a.subjectKey.localeCompare(b.subjectKey));
}

/** The masked label of each subject, and (customers) the branch of its latest token up to `to`. */
async function subjectFacts(db: DbExecutor, type: SubjectType, keys: string[], to: Date): Promise<Map<string, { label: string; latestBranchId: string | null; branches: number }>> {
  const facts = new Map<string, { label: string; latestBranchId: string | null; branches: number }>();
  if (type === "staff") {
    const found = await rows<{ id: string; username: string | null; branch_id: string | null }>(
      db,
      sql`select u.id, u.username, sp.branch_id::text as branch_id from auth_users u left join staff_profiles sp on sp.user_id = u.id where ${inList(sql`u.id`, keys)}`,
    );
    for (const row of found) facts.set(row.id, { label: row.username ?? "(unknown)", latestBranchId: row.branch_id, branches: 0 });
    return facts;
  }
  const column = type === "id" ? sql`id_number_index` : sql`phone_number_index`;
  const found = await rows<{ subject: string; id_type: string; last4: string | null; phone: string | null; branch_id: string }>(
    db,
    sql`select distinct on (${column}) ${column} as subject, id_type::text as id_type, id_number_last4 as last4, phone_number as phone, branch_id::text as branch_id
          from token_requests where ${inList(column, keys)} and created_at < ${at(to)}
         order by ${column}, created_at desc, id desc`,
  );
  for (const row of found) {
    const label = type === "id" ? (row.last4 ? maskIdNumber(row.id_type, row.last4) : "(erased)") : (row.phone ?? "(erased)");
    facts.set(row.subject, { label, latestBranchId: row.branch_id, branches: 0 });
  }
  return facts;
}

/** One sentence, masked values only: "ID GHA-•••••789-0: 4 tokens in 6 h at 3 branches — rule 1 v2, ≥ 3 in 24 h". */
function sentenceOf(hit: Pick<RuleHit, "rule" | "subjectType" | "subjectLabel" | "counts">): string {
  const who = hit.subjectType === "id" ? `ID ${hit.subjectLabel}` : hit.subjectType === "phone" ? `Phone ${hit.subjectLabel}` : `Staff ${hit.subjectLabel}`;
  const descriptor = ruleOf(hit.rule.ruleKey);
  return `${who}: ${descriptor.describeHit(hit.counts)} — rule ${descriptor.number} v${hit.rule.version}, ${thresholdWords(hit.rule)}`;
}
