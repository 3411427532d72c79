import type { FieldErrors, FieldValues, ResolverResult } from "react-hook-form";
import type { FormCheck } from "@/lib/validation/form-check";

/**
 * react-hook-form's answer from a form checked with plain rules (lib/validation/form-check.ts):
 * the normalised values, or each field's message under its name.
 */
export function resolverResultOf<Input extends FieldValues, Output>(check: FormCheck<Output>): ResolverResult<Input, Output> {
  if (check.ok) return { values: check.values, errors: {} };
  const errors = Object.fromEntries(Object.entries(check.fieldErrors).map(([name, message]) => [name, { type: "rule", message }]));
  return { values: {}, errors: errors as FieldErrors<Input> };
}
