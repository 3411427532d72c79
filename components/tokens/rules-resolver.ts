import type { FieldValues, Resolver } from "react-hook-form";
import { resolverResultOf } from "@/components/ui/form-check-resolver";
import type { FormCheck } from "@/lib/validation/form-check";

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
 * react-hook-form's resolver from one of the rules' whole-form checks (resolverResultOf). Should the rules not load (the connection dropped), the
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
    return resolverResultOf<Input, Output>(check);
  };
}
