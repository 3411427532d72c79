import { z } from "zod";
import type { FormCheck } from "./form-check";

/**
 * A zod schema that answers exactly what a plain form check answers (lib/validation/form-check.ts):
 * its values, or its messages under their fields. For a server action whose form the browser
 * checks without zod (ADR 0034).
 */
export function schemaFromCheck<Input, Output>(check: (input: unknown) => FormCheck<Output>) {
  return z.custom<Input>(() => true).transform((input, context) => {
    const checked = check(input);
    if (checked.ok) return checked.values;
    for (const [name, message] of Object.entries(checked.fieldErrors)) context.addIssue({ code: "custom", path: [name], message });
    return z.NEVER;
  });
}
