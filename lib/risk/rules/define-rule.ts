import { sql, type SQL } from "drizzle-orm";

/**
 * What one risk rule is (ADR 0046, ADR 0061): everything about it in one file under
 * lib/risk/rules/, listed once in lib/risk/rules/index.ts, which every other module reads.
 *
 * A rule only *describes* its query (a `sql` template): lib/risk/evaluate.ts runs it, inside the
 * live evaluator's transaction or the backtest's READ ONLY one. So a rule file touches no database
 * and needs no `server-only`; the rule pages read its words and parameters directly.
 */

export type Severity = "low" | "medium" | "high";
/** What a rule is about: an ID number's blind index, a phone's blind index, or a staff member's user id. */
export type SubjectType = "id" | "phone" | "staff";

/** One parameter as the proposal form shows it: label, hint and the range that makes sense. */
export type ParamSpec = { label: string; hint?: string; kind: "integer" | "share" | "digits"; min?: number; max?: number };
export type ParamValues = Record<string, number | string>;

/** Only these subjects (the live evaluator's changed ones); all when a list is absent (the backtest). */
export type SubjectFilter = { idIndexes?: readonly string[]; phoneIndexes?: readonly string[]; userIds?: readonly string[] };
/** The triggers looked at: [from, to). A rule's own window may reach back before `from`. */
export type TriggerWindow = { from: Date; to: Date };

/*
 * Written as methods, not function-valued properties: TypeScript checks method parameters
 * bivariantly, which is what lets the index hold rules with different parameters in one list
 * (each file still gets its own parameters' types).
 */
export type RiskRuleDefinition<Key extends string, Params extends ParamValues> = {
  key: Key;
  /** What people call it ("rule 8"); alert sentences quote it, so a number is never reused. */
  number: number;
  title: string;
  /** The subject its alerts (and so its cases) are about. */
  subject: SubjectType;
  /** Version 1 as shipped: the migration that brought the rule inserts the same JSON. */
  defaults: Params;
  /** Each parameter, for the proposal form and its schema (lib/risk/rule-schemas.ts). */
  params: { [Name in keyof Params]: ParamSpec };
  /** Mistakes across parameters, each on one parameter's field (the schema has checked each one alone). */
  checkParams?(params: Partial<Params>): { param: keyof Params & string; message: string }[];
  /** Audit actions whose actors the live evaluator re-evaluates (lib/risk/evaluator.ts). */
  auditActions?: readonly string[];
  /**
   * Read-only SELECTs giving one row per trigger inside the window, with the columns
   * `subject, at_ms, branch_id, token_ids, audit_ids, first_ms` (lib/risk/evaluate.ts merges
   * them per subject) and the counters below. Run in order; their rows are added together.
   */
  triggerQueries(params: Params, window: TriggerWindow, filter: SubjectFilter): SQL[];
  /** The counters a hit keeps (the maximum over its triggers), for the sentence and the alert. */
  counters: readonly string[];
  /** "≥ 3 in 24 h": the threshold as the alert sentence and the rule pages quote it. */
  thresholdWords(params: Params): string;
  /** What the subject did, from the hit's counters: the middle of the alert's sentence. */
  describeHit(counts: Record<string, number>): string;
  /** The hit's severity when it is not simply the version's. */
  severityOf?(counts: Record<string, number>, versionSeverity: Severity): Severity;
};

/** Checks a rule file against the shape, keeping its key and parameters' own types. */
export function defineRule<const Key extends string, Params extends ParamValues>(rule: RiskRuleDefinition<Key, Params>): RiskRuleDefinition<Key, Params> {
  return rule;
}

// ─── The SQL pieces every rule's query uses (PGlite and PostgreSQL run them alike) ─────────────

/** Epoch milliseconds of a timestamp column, as a float the drivers both return as a number. */
export const ms = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;
export const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
export const hours = (value: number) => sql`(${value}::float8 * interval '1 hour')`;

/** `column in (…)`; true without a list (every subject), false with an empty one (none). */
export function inList(column: SQL, values: readonly string[] | undefined): SQL {
  if (values === undefined) return sql`true`;
  if (values.length === 0) return sql`false`;
  return sql`${column} in (${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`;
}

/** "45 min" or "6 h": how long a burst took, in a sentence. */
export function spanWords(spanMs: number): string {
  const minutes = Math.max(1, Math.round(spanMs / 60_000));
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}
