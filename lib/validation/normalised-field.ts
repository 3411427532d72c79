import { z } from "zod";

/**
 * The result of a field's normaliser: the value to keep, or the message to show. Each form field
 * is a plain normaliser (testable without zod, shared with the inputs that format as you type),
 * made a schema field once, here.
 */
export type Normalised<Value = string> = { ok: true; value: Value } | { ok: false; message: string };

/** `input` checked, then normalised: the normaliser's value out, or its message as the field's error. */
export function normalisedField<Input extends z.ZodType, Value>(input: Input, normalise: (raw: z.output<Input>) => Normalised<Value>) {
  return input.transform((raw, context) => {
    const result = normalise(raw as z.output<Input>);
    if (result.ok) return result.value;
    context.addIssue({ code: "custom", message: result.message });
    return z.NEVER;
  });
}
