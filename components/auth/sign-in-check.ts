import { checkFields, formCheckOf, type FieldRule, type FormCheck } from "@/lib/validation/form-check";

/**
 * The sign-in form's own check, before anything is sent: both fields filled in. better-auth checks
 * the rest. Plain rules, so the first page of a teller's day loads no zod (ADR 0034).
 */
export const signInFieldMessages = { username: "Enter your username.", password: "Enter your password." } as const;

export type SignInValues = { username: string; password: string };

const signInRules: Record<keyof SignInValues, FieldRule<string>> = {
  // A username is never typed with spaces around it; a password is sent exactly as typed.
  username: (raw) => {
    const username = typeof raw === "string" ? raw.trim() : "";
    return username === "" ? { ok: false, message: signInFieldMessages.username } : { ok: true, value: username };
  },
  password: (raw) => (typeof raw === "string" && raw !== "" ? { ok: true, value: raw } : { ok: false, message: signInFieldMessages.password }),
};

export function checkSignIn(input: unknown): FormCheck<SignInValues> {
  const { values, fieldErrors } = checkFields(signInRules, input);
  return formCheckOf(values, fieldErrors);
}
