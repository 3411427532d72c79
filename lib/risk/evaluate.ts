import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { maskIdNumber } from "@/lib/pii/mask";
import { accessActions, paramsOf, smsTokenAttachAction, ruleNumbers, ruleSubjects, thresholdWords, type RuleKey, type RuleVersion, type SubjectType } from "./rules";

/**
 * The one evaluation of the risk rules (ADR 0046): read-only SQL over the blind indexes, the
 * masked copies and the audit trail — never a decrypted value — that PGlite and PostgreSQL run
 * alike. The live evaluator calls it for the subjects that just changed and the backtest for a
 * whole date range, so a backtest is exactly what the rule would have done.
 *
 * A "trigger" is the token (or audit event) that completes a pattern: every rule looks back from
 * each trigger inside [from, to) over its window (which may reach before `from`). The hits of one
 * rule on one subject are merged into one hit, as the alert they make is one.
 */

export type SubjectFilter = { idIndexes?: readonly string[]; phoneIndexes?: readonly string[]; userIds?: readonly string[] };

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
  /** The rule's severity, raised for rule 2 when the success came from another teller, branch or phone. */
  severity: RuleVersion["severity"];
};

type Row = Record<string, unknown>;


async function rows<T = Row>(db: DbExecutor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const ms = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const hours = (value: number) => sql`(${value}::float8 * interval '1 hour')`;

function inList(column: SQL, values: readonly string[] | undefined): SQL {
  if (values === undefined) return sql`true`;
  if (values.length === 0) return sql`false`;
  return sql`${column} in (${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`;
}

type TriggerRow = { subject: string; at_ms: number; branch_id: string | null; token_ids: string | null; audit_ids: string | null; first_ms: number } & Record<string, unknown>;

/** Merges trigger rows per subject into hits; `count` names the counters to keep (the maximum over triggers). */
type PartialHit = Omit<RuleHit, "subjectLabel" | "sentence" | "latestBranchId" | "subjectUserId" | "severity">;

function mergeTriggers(rule: RuleVersion, found: TriggerRow[], counters: readonly string[]): Map<string, PartialHit> {
  const bySubject = new Map<string, PartialHit>();
  for (const row of found) {
    let hit = bySubject.get(row.subject);
    if (!hit) {
      hit = { rule, subjectType: ruleSubjects[rule.ruleKey], subjectKey: row.subject, tokenIds: [], auditEventIds: [], counts: {}, triggers: [], firstAtMs: Number(row.first_ms), lastAtMs: Number(row.at_ms) };
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

type Window = { from: Date; to: Date };

async function sameIdVelocity(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "same_id_velocity", params: rule.params });
  return rows<TriggerRow>(
    db,
    sql`select t.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(*)::int as tokens, count(distinct u.branch_id)::int as branches,
               ${ms(sql`max(u.created_at) - min(u.created_at)`)} as span_ms,
               string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.id_number_index = t.id_number_index
           and u.created_at > t.created_at - ${hours(p.windowHours)} and u.created_at <= t.created_at
         where t.id_number_index is not null and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.id_number_index`, filter.idIndexes)}
         group by t.id, t.id_number_index, t.created_at, t.branch_id
        having count(*) >= ${p.minTokens} or count(distinct u.branch_id) >= ${p.minBranches}`,
  );
}

async function mulePhone(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "mule_phone", params: rule.params });
  return rows<TriggerRow>(
    db,
    sql`select t.phone_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(distinct u.id_number_index)::int as id_numbers, count(*)::int as tokens,
               string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.phone_number_index = t.phone_number_index and u.kind = 'remote'
           and u.created_at > t.created_at - ${hours(p.windowDays * 24)} and u.created_at <= t.created_at
         where t.kind = 'remote' and t.phone_number_index is not null and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.phone_number_index`, filter.phoneIndexes)}
         group by t.id, t.phone_number_index, t.created_at, t.branch_id
        having count(distinct u.id_number_index) >= ${p.minIdNumbers}`,
  );
}

async function phoneAbroad(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "phone_abroad", params: rule.params });
  return rows<TriggerRow>(
    db,
    sql`select t.phone_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               1 as tokens, t.id::text as token_ids, null as audit_ids, ${ms(sql`t.created_at`)} as first_ms
          from token_requests t
         where t.kind = 'remote' and t.phone_number_index is not null and t.phone_calling_code is not null
           and t.phone_calling_code <> ${p.homeCallingCode}
           and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.phone_number_index`, filter.phoneIndexes)}`,
  );
}

async function fingerprintTwoBranches(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "fingerprint_two_branches", params: rule.params });
  return rows<TriggerRow>(
    db,
    sql`select t.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(distinct u.branch_id)::int as branches, count(*)::int as tokens,
               ${ms(sql`max(u.created_at) - min(u.created_at)`)} as span_ms,
               string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.id_number_index = t.id_number_index and u.kind = 'fingerprint'
           and u.created_at > t.created_at - ${hours(p.windowHours)} and u.created_at <= t.created_at
         where t.kind = 'fingerprint' and t.id_number_index is not null and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.id_number_index`, filter.idIndexes)}
         group by t.id, t.id_number_index, t.created_at, t.branch_id
        having count(distinct u.branch_id) >= 2`,
  );
}

async function staffIdAccess(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "staff_id_access", params: rule.params });
  const reveal = accessActions.idRevealed;
  const search = accessActions.idSearched;
  const fullExport = accessActions.exportedFullIds;
  // Over the limit in any 24 hours, per kind of access.
  const overLimit = await rows<TriggerRow>(
    db,
    sql`select a.actor_user_id as subject, ${ms(sql`a.at`)} as at_ms, sp.branch_id::text as branch_id,
               count(*) filter (where b.action = ${reveal})::int as reveals,
               count(*) filter (where b.action = ${search})::int as searches,
               count(*) filter (where b.action = ${fullExport})::int as full_exports,
               string_agg(case when b.subject_type = 'token_request' then b.subject_id end, ',') as token_ids,
               string_agg(b.id::text, ',') as audit_ids, ${ms(sql`min(b.at)`)} as first_ms
          from audit_events a
          join audit_events b on b.actor_user_id = a.actor_user_id and b.action = a.action
           and b.at > a.at - interval '24 hours' and b.at <= a.at
          left join staff_profiles sp on sp.user_id = a.actor_user_id
         where a.actor_user_id is not null and a.action in (${reveal}, ${search}, ${fullExport})
           and a.at >= ${at(window.from)} and a.at < ${at(window.to)}
           and ${inList(sql`a.actor_user_id`, filter.userIds)}
         group by a.id, a.actor_user_id, a.at, a.action, sp.branch_id
        having count(*) > case a.action when ${reveal} then ${p.maxReveals}::int when ${search} then ${p.maxSearches}::int else ${p.maxFullExports}::int end`,
  );
  // A reveal of an ID number with no token at the revealer's own branch lately. Head office reads
  // every branch by its work, so only branch staff are held to it.
  const strayReveals = await rows<TriggerRow>(
    db,
    sql`select a.actor_user_id as subject, ${ms(sql`a.at`)} as at_ms, sp.branch_id::text as branch_id,
               1 as stray_reveals, r.id::text as token_ids, a.id::text as audit_ids, ${ms(sql`a.at`)} as first_ms
          from audit_events a
          join staff_profiles sp on sp.user_id = a.actor_user_id and sp.role = 'supervisor'
          join token_requests r on r.id::text = a.subject_id and a.subject_type = 'token_request'
         where a.action = ${reveal} and r.id_number_index is not null
           and a.at >= ${at(window.from)} and a.at < ${at(window.to)}
           and ${inList(sql`a.actor_user_id`, filter.userIds)}
           and not exists (select 1 from token_requests x where x.id_number_index = r.id_number_index and x.branch_id = sp.branch_id
                              and x.created_at > a.at - ${hours(p.noTokenLookbackDays * 24)} and x.created_at <= a.at)`,
  );
  return [...overLimit, ...strayReveals];
}

async function retryThenSuccess(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "retry_then_success", params: rule.params });
  return rows<TriggerRow>(
    db,
    sql`select t.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(*)::int as failures,
               count(*) filter (where u.issued_by_user_id <> t.issued_by_user_id or u.branch_id <> t.branch_id
                                   or u.phone_number_index is distinct from t.phone_number_index)::int as elsewhere,
               t.id::text || ',' || string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.id_number_index = t.id_number_index and u.live_state in ('failed', 'expired')
           and u.created_at > t.created_at - ${hours(p.windowHours)} and u.created_at < t.created_at
         where t.live_state = 'successful' and t.id_number_index is not null
           and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.id_number_index`, filter.idIndexes)}
         group by t.id, t.id_number_index, t.created_at, t.branch_id
        having count(*) >= ${p.minFailures}`,
  );
}

async function newPhoneAfterVerified(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "new_phone_after_verified", params: rule.params });
  const since = sql`t.created_at - ${hours(p.lookbackDays * 24)}`;
  // The ID verified before, a phone was known for it before, and this phone never was.
  return rows<TriggerRow>(
    db,
    sql`select t.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id, 1 as tokens,
               t.id::text || ',' || (select string_agg(v.id::text, ',') from token_requests v
                                      where v.id_number_index = t.id_number_index and v.live_state = 'successful'
                                        and v.created_at > ${since} and v.created_at < t.created_at) as token_ids,
               null as audit_ids, ${ms(sql`t.created_at`)} as first_ms
          from token_requests t
         where t.kind = 'remote' and t.id_number_index is not null and t.phone_number_index is not null
           and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.id_number_index`, filter.idIndexes)}
           and exists (select 1 from token_requests v where v.id_number_index = t.id_number_index and v.live_state = 'successful'
                         and v.created_at > ${since} and v.created_at < t.created_at)
           and exists (select 1 from token_requests k where k.id_number_index = t.id_number_index and k.phone_number_index is not null
                         and k.created_at > ${since} and k.created_at < t.created_at)
           and not exists (select 1 from token_requests w where w.id_number_index = t.id_number_index and w.phone_number_index = t.phone_number_index
                             and w.created_at < t.created_at)`,
  );
}

async function cardFailThenOtherId(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "card_fail_then_other_id", params: rule.params });
  // The subject is the Ghana Card that failed; the trigger, the other document's token after it.
  return rows<TriggerRow>(
    db,
    sql`select f.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id, 1 as tokens,
               f.id::text || ',' || t.id::text as token_ids, null as audit_ids, ${ms(sql`f.created_at`)} as first_ms
          from token_requests t
          join token_requests f on f.id_type = 'GHANA_CARD' and f.result_status = 'FAILED' and f.id_number_index is not null
           and f.result_at <= t.created_at and f.result_at > t.created_at - ${hours(p.windowHours)}
           and (f.reference_index = t.reference_index or f.phone_number_index = t.phone_number_index)
         where t.id_type <> 'GHANA_CARD' and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and (${inList(sql`f.id_number_index`, filter.idIndexes)} or ${inList(sql`t.id_number_index`, filter.idIndexes)})`,
  );
}

async function tellerFailureRate(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "teller_failure_rate", params: rule.params });
  // The bank's check as an oracle: a teller trying many ID numbers that mostly fail.
  const failing = await rows<TriggerRow>(
    db,
    sql`select t.issued_by_user_id as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(distinct u.id_number_index)::int as id_numbers,
               count(*) filter (where u.live_state in ('failed', 'expired', 'invalid'))::int as failed, count(*)::int as tokens,
               string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.issued_by_user_id = t.issued_by_user_id
           and u.created_at > t.created_at - interval '24 hours' and u.created_at <= t.created_at
         where t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.issued_by_user_id`, filter.userIds)}
         group by t.id, t.issued_by_user_id, t.created_at, t.branch_id
        having count(distinct u.id_number_index) >= ${p.minIdNumbers}
           and count(*) filter (where u.live_state in ('failed', 'expired', 'invalid')) >= ${p.minFailedShare}::float8 * count(*)`,
  );
  // Tokens outside opening hours, on the bank's clock (Ghana keeps UTC all year).
  const outOfHours = await rows<TriggerRow>(
    db,
    sql`select t.issued_by_user_id as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id, 1 as out_of_hours,
               t.id::text as token_ids, null as audit_ids, ${ms(sql`t.created_at`)} as first_ms
          from token_requests t
         where t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.issued_by_user_id`, filter.userIds)}
           and (extract(hour from t.created_at at time zone 'UTC') < ${p.openHour} or extract(hour from t.created_at at time zone 'UTC') >= ${p.closeHour})`,
  );
  return [...failing, ...outOfHours];
}

async function smsTokenAttach(db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter): Promise<TriggerRow[]> {
  const p = paramsOf({ ruleKey: "sms_token_attach", params: rule.params });
  // The supervisor who attached is the subject; the attempts they attached are the tokens.
  return rows<TriggerRow>(
    db,
    sql`select a.actor_user_id as subject, ${ms(sql`a.at`)} as at_ms, a.branch_id::text as branch_id,
               count(*)::int as attaches, count(distinct b.details->>'issuedByUserId')::int as issuers,
               string_agg(case when b.subject_type = 'token_request' then b.subject_id end, ',') as token_ids,
               string_agg(b.id::text, ',') as audit_ids, ${ms(sql`min(b.at)`)} as first_ms
          from audit_events a
          join audit_events b on b.actor_user_id = a.actor_user_id and b.action = a.action
           and b.at > a.at - ${hours(p.windowHours)} and b.at <= a.at
         where a.actor_user_id is not null and a.action = ${smsTokenAttachAction}
           and a.at >= ${at(window.from)} and a.at < ${at(window.to)}
           and ${inList(sql`a.actor_user_id`, filter.userIds)}
         group by a.id, a.actor_user_id, a.at, a.branch_id
        having count(*) > ${p.maxAttaches}::int`,
  );
}

const evaluators: Partial<Record<RuleKey, { run: (db: DbExecutor, rule: RuleVersion, window: Window, filter: SubjectFilter) => Promise<TriggerRow[]>; counters: string[] }>> = {
  same_id_velocity: { run: sameIdVelocity, counters: ["tokens", "branches", "span_ms"] },
  mule_phone: { run: mulePhone, counters: ["id_numbers", "tokens"] },
  phone_abroad: { run: phoneAbroad, counters: ["tokens"] },
  fingerprint_two_branches: { run: fingerprintTwoBranches, counters: ["branches", "tokens", "span_ms"] },
  staff_id_access: { run: staffIdAccess, counters: ["reveals", "searches", "full_exports", "stray_reveals"] },
  retry_then_success: { run: retryThenSuccess, counters: ["failures", "elsewhere"] },
  new_phone_after_verified: { run: newPhoneAfterVerified, counters: ["tokens"] },
  card_fail_then_other_id: { run: cardFailThenOtherId, counters: ["tokens"] },
  teller_failure_rate: { run: tellerFailureRate, counters: ["id_numbers", "failed", "tokens", "out_of_hours"] },
  sms_token_attach: { run: smsTokenAttach, counters: ["attaches", "issuers"] },
};

/** The rules this build can evaluate; the others are data waiting for their evaluator. */
export function isEvaluated(ruleKey: RuleKey): boolean {
  return evaluators[ruleKey] !== undefined;
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
    const evaluator = evaluators[rule.ruleKey];
    if (!evaluator || rule.mode === "off") continue;
    const from = options.respectActiveFrom && rule.activeFrom && rule.activeFrom > options.from ? rule.activeFrom : options.from;
    if (from >= options.to) continue;
    const found = await evaluator.run(db, rule, { from, to: options.to }, options.subjects ?? {});
    const merged = mergeTriggers(rule, found, evaluator.counters);
    if (merged.size === 0) continue;
    const labels = await subjectFacts(db, ruleSubjects[rule.ruleKey], [...merged.keys()], options.to);
    for (const partial of merged.values()) {
      const facts = labels.get(partial.subjectKey) ?? { label: "(erased)", latestBranchId: null, branches: 0 };
      const severity = rule.ruleKey === "retry_then_success" && (partial.counts.elsewhere ?? 0) > 0 ? "high" : rule.severity;
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

function spanWords(spanMs: number): string {
  const minutes = Math.max(1, Math.round(spanMs / 60_000));
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

/** One sentence, masked values only: "ID GHA-•••••789-0: 4 tokens in 6 h at 3 branches — rule 1 v2, ≥ 3 in 24 h". */
export function sentenceOf(hit: Pick<RuleHit, "rule" | "subjectType" | "subjectLabel" | "counts">): string {
  const c = hit.counts;
  const who = hit.subjectType === "id" ? `ID ${hit.subjectLabel}` : hit.subjectType === "phone" ? `Phone ${hit.subjectLabel}` : `Staff ${hit.subjectLabel}`;
  let what: string;
  switch (hit.rule.ruleKey) {
    case "same_id_velocity":
      what = `${c.tokens} tokens in ${spanWords(c.span_ms ?? 0)} at ${c.branches} ${c.branches === 1 ? "branch" : "branches"}`;
      break;
    case "mule_phone":
      what = `remote links for ${c.id_numbers} different ID numbers`;
      break;
    case "phone_abroad":
      what = `${c.tokens === 1 ? "a remote link" : `${c.tokens} remote links`} to a phone outside Ghana`;
      break;
    case "fingerprint_two_branches":
      what = `fingerprint tokens at ${c.branches} branches within ${spanWords(c.span_ms ?? 0)}`;
      break;
    case "retry_then_success":
      what = `${c.failures} failed or expired tokens, then a success${c.elsewhere ? " from another teller, branch or phone" : ""}`;
      break;
    case "new_phone_after_verified":
      what = "a remote link to a phone never seen for this ID, which verified before";
      break;
    case "card_fail_then_other_id":
      what = "a Ghana Card failure, then a token for another ID type to the same reference or phone";
      break;
    case "teller_failure_rate": {
      const parts = [c.id_numbers ? `${c.id_numbers} ID numbers in 24 h, ${c.failed} of ${c.tokens} tokens failed, expired or invalid` : "", c.out_of_hours ? "tokens outside opening hours" : ""].filter(Boolean);
      what = parts.join("; ");
      break;
    }
    case "staff_id_access": {
      const parts = [
        c.reveals ? `${c.reveals} ID reveals` : "",
        c.searches ? `${c.searches} ID searches` : "",
        c.full_exports ? `${c.full_exports} full-ID exports` : "",
        c.stray_reveals ? "a reveal of an ID with no recent token at their branch" : "",
      ].filter(Boolean);
      what = parts.length > 0 ? `${parts.join(", ")} in 24 h` : "ID access";
      break;
    }
    case "sms_token_attach":
      what = c.attaches === 1 ? "a token entered from a customer's SMS" : `${c.attaches} tokens entered from customers' SMS (attempts of ${c.issuers} ${c.issuers === 1 ? "teller" : "tellers"})`;
      break;
    default:
      what = "matched";
  }
  return `${who}: ${what} — rule ${ruleNumbers[hit.rule.ruleKey]} v${hit.rule.version}, ${thresholdWords(hit.rule)}`;
}
