import { z } from "zod";
import type { FieldRule, FormCheck, RuleValue } from "./form-check";

/**
 * The server's zod schemas made from the plain rules the browser checks with (ADR 0034), so a
 * form is never checked one way in the browser and another on the server.
 */

/** A field of a zod schema that answers exactly what its rule answers. */
export function fieldFromRule<Input, Value>(rule: FieldRule<Value>) {
  return z.custom<Input>(() => true).transform((raw, context) => {
    const checked = rule(raw);
    if (checked.ok) return checked.value;
    context.addIssue({ code: "custom", message: checked.message });
    return z.NEVER;
  });
}

/** A schema shape from a set of rules, each field typed by what the form puts in it. */
export function shapeFromRules<Input, Rules extends Record<string, FieldRule<unknown>>>(rules: Rules) {
  return Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, fieldFromRule(rule)])) as {
    [Name in keyof Rules]: ReturnType<typeof fieldFromRule<Name extends keyof Input ? Input[Name] : never, RuleValue<Rules[Name]>>>;
  };
}

/** A whole schema that answers exactly what a whole-form check answers: its values, or its messages under their fields. */
export function schemaFromCheck<Input, Output>(check: (input: unknown) => FormCheck<Output>) {
  return z.custom<Input>(() => true).transform((input, context) => {
    const checked = check(input);
    if (checked.ok) return checked.values;
    for (const [name, message] of Object.entries(checked.fieldErrors)) context.addIssue({ code: "custom", path: [name], message });
    return z.NEVER;
  });
}
