import type { Normalised } from "./normalised";

/**
 * A form checked with plain rules, one per field (ADR 0034): what the browser checks a form with
 * when it should not load zod. No dependency: a form's page may load it.
 */

/** One field's rule: any value in (a form may send anything), the normalised value or the message out. */
export type FieldRule<Value> = (raw: unknown) => Normalised<Value>;
export type RuleValue<Rule> = Rule extends FieldRule<infer Value> ? Value : never;

/** A whole form checked: its normalised values (only the fields it has), or every field's message. */
export type FormCheck<Values> = { ok: true; values: Values } | { ok: false; fieldErrors: Record<string, string> };

/** Every rule run on its field of `input`: the values that passed and the messages of those that did not. */
export function checkFields(rules: Record<string, FieldRule<unknown>>, input: unknown) {
  const record = asRecord(input);
  const values: Record<string, unknown> = {};
  const fieldErrors: Record<string, string> = {};
  for (const [name, rule] of Object.entries(rules)) {
    const checked = rule(record[name]);
    if (checked.ok) values[name] = checked.value;
    else fieldErrors[name] = checked.message;
  }
  return { values, fieldErrors };
}

/** The form's answer once every rule (and any rule across fields) has run. */
export function formCheckOf<Values>(values: Record<string, unknown>, fieldErrors: Record<string, string>): FormCheck<Values> {
  return Object.keys(fieldErrors).length === 0 ? { ok: true, values: values as Values } : { ok: false, fieldErrors };
}

export function asRecord(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
}
