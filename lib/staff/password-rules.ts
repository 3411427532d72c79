import { z } from "zod";

/**
 * What a staff password must be, in one place: the change-password form (client), its action,
 * better-auth's own length check (lib/auth/server.ts) and `npm run staff:create`. No node-only
 * imports: the form's bundle includes this file.
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

export const newPasswordSchema = z.string({ error: passwordMessages.tooShort }).min(PASSWORD_MIN, passwordMessages.tooShort).max(PASSWORD_MAX, passwordMessages.tooLong);

/**
 * Replacing the temporary password: the one signed in with, the new one, and the new one again.
 * Passwords are never trimmed. The cross-field rules run even when a field has its own error, so
 * every message shows at once.
 */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ error: passwordMessages.currentMissing }).min(1, passwordMessages.currentMissing).max(PASSWORD_MAX, passwordMessages.currentWrong),
    newPassword: newPasswordSchema,
    confirmPassword: z.string({ error: passwordMessages.confirmMissing }).min(1, passwordMessages.confirmMissing),
  })
  .superRefine((value, context) => {
    if (value.newPassword && value.newPassword === value.currentPassword) {
      context.addIssue({ code: "custom", path: ["newPassword"], message: passwordMessages.sameAsCurrent });
    }
    if (value.confirmPassword && value.confirmPassword !== value.newPassword) {
      context.addIssue({ code: "custom", path: ["confirmPassword"], message: passwordMessages.confirmDiffers });
    }
  });

export type ChangePasswordInput = z.output<typeof changePasswordSchema>;
