import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { FormCheck } from "@/lib/validation/token-form-rules";

type TokenFormRules = typeof import("@/lib/validation/token-form-rules");

let rulesLoading: Promise<TokenFormRules> | undefined;

/**
 * The token forms' rules (and the Ghana phone metadata they use) load after the page, not with it
 * (ADR 0034): a form calls this when it mounts, long before the teller leaves the first field.
 * A failed load is forgotten, so the next check tries again.
 */
export function loadTokenFormRules(): Promise<TokenFormRules> {
  rulesLoading ??= import("@/lib/validation/token-form-rules").catch((error: unknown) => {
    rulesLoading = undefined;
    throw error;
  });
  return rulesLoading;
}

/**
 * react-hook-form's resolver from one of the rules' whole-form checks: the normalised values, or
 * each field's message under its name. Should the rules not load (the connection dropped), the
 * values go to the server as typed: it checks them with the same rules and names every mistake.
 */
export function rulesResolver<Input extends FieldValues, Output>(
  checkOf: (rules: TokenFormRules) => (input: unknown) => FormCheck<Output>,
): Resolver<Input, unknown, Output> {
  return async (values) => {
    let check: FormCheck<Output>;
    try {
      check = checkOf(await loadTokenFormRules())(values);
    } catch {
      return { values: values as unknown as Output, errors: {} };
    }
    if (check.ok) return { values: check.values, errors: {} };
    const errors = Object.fromEntries(Object.entries(check.fieldErrors).map(([name, message]) => [name, { type: "rule", message }]));
    return { values: {}, errors: errors as FieldErrors<Input> };
  };
}
