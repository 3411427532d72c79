import { asRecord, checkFields, formCheckOf, type FieldRule, type FormCheck } from "@/lib/validation/form-check";

/**
 * What a staff password must be, in one place: the change-password form (client), its action
 * (through `change-password-schema.ts`), better-auth's own length check (lib/auth/server.ts) and
 * `npm run staff:create`. Plain rules, no zod and no node-only imports: the form's bundle includes
 * this file (ADR 0034).
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

export const passwordMessages = {
  tooShort: `Use at least ${PASSWORD_MIN} characters. A short phrase is easier to remember than a jumble of signs.`,
  tooLong: `Use at most ${PASSWORD_MAX} characters.`,
  currentMissing: "Enter the temporary password you signed in with.",
  currentWrong: "This is not the temporary password you signed in with. Check it and try again.",
  sameAsCurrent: "Choose a password different from the temporary one.",
  confirmMissing: "Type the new password again.",
  confirmDiffers: "The two new passwords differ. Type the same password in both fields.",
} as const;

export type ChangePasswordInput = { currentPassword: string; newPassword: string; confirmPassword: string };

const changePasswordRules: Record<keyof ChangePasswordInput, FieldRule<string>> = {
  currentPassword: (raw) => {
    if (typeof raw !== "string" || raw === "") return { ok: false, message: passwordMessages.currentMissing };
    return raw.length > PASSWORD_MAX ? { ok: false, message: passwordMessages.currentWrong } : { ok: true, value: raw };
  },
  newPassword: (raw) => {
    if (typeof raw !== "string" || raw.length < PASSWORD_MIN) return { ok: false, message: passwordMessages.tooShort };
    return raw.length > PASSWORD_MAX ? { ok: false, message: passwordMessages.tooLong } : { ok: true, value: raw };
  },
  confirmPassword: (raw) => (typeof raw === "string" && raw !== "" ? { ok: true, value: raw } : { ok: false, message: passwordMessages.confirmMissing }),
};

/**
 * Replacing the temporary password: the one signed in with, the new one, and the new one again.
 * Passwords are never trimmed. The cross-field rules run even when a field has its own error, so
 * every message shows at once (a field's own message first).
 */
export function checkChangePassword(input: unknown): FormCheck<ChangePasswordInput> {
  const { values, fieldErrors } = checkFields(changePasswordRules, input);
  const typed = asRecord(input);
  if (typed.newPassword && typed.newPassword === typed.currentPassword) fieldErrors.newPassword ??= passwordMessages.sameAsCurrent;
  if (typed.confirmPassword && typed.confirmPassword !== typed.newPassword) fieldErrors.confirmPassword ??= passwordMessages.confirmDiffers;
  return formCheckOf(values, fieldErrors);
}
