/**
 * What the second step of signing in says for each answer of better-auth's code endpoints (and
 * of Veridesk's checks around them, lib/auth/two-factor).
 */
export const codeStepMessages = {
  codeMissing: "Enter the 6-digit code from your authenticator app.",
  codeShape: "The code is 6 digits, as your authenticator app shows it.",
  backupCodeMissing: "Enter one of your backup codes.",
  codeWrong: "That code is not right. Type the 6 digits your authenticator app shows now.",
  backupCodeWrong: "That backup code is not right, or was used already. Each backup code works once.",
  codeUsed: "That code was used already. Wait for the next code in your authenticator app, then type it.",
  expired: "Signing in took too long. Enter your password again.",
  tooManyAttempts: "Too many wrong codes. Enter your password again to get a new try.",
} as const;

export type CodeAnswer = { status: number; code?: string; message?: string };

/**
 * The sentence for a refused code, and whether the password must be typed again (the pending
 * sign-in is gone: it expired, or took too many wrong codes).
 */
export function codeStepOutcome(answer: CodeAnswer, kind: "totp" | "backup_code"): { message: string; restart: boolean } | null {
  if (answer.code === "CODE_ALREADY_USED") return { message: kind === "totp" ? codeStepMessages.codeUsed : codeStepMessages.backupCodeWrong, restart: false };
  if (answer.code === "INVALID_CODE") return { message: codeStepMessages.codeWrong, restart: false };
  if (answer.code === "INVALID_BACKUP_CODE") return { message: codeStepMessages.backupCodeWrong, restart: false };
  if (answer.code === "INVALID_TWO_FACTOR_COOKIE") return { message: codeStepMessages.expired, restart: true };
  if (answer.code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") return { message: codeStepMessages.tooManyAttempts, restart: true };
  if (answer.code === "VALIDATION" || answer.status === 422) return { message: kind === "totp" ? codeStepMessages.codeShape : codeStepMessages.backupCodeWrong, restart: false };
  return null;
}

/** The code as typed, checked before it is sent: 6 digits (spaces allowed), or a backup code. */
export function checkCode(raw: string, kind: "totp" | "backup_code"): { ok: true; value: string } | { ok: false; message: string } {
  const trimmed = raw.trim();
  if (kind === "backup_code") return trimmed === "" ? { ok: false, message: codeStepMessages.backupCodeMissing } : { ok: true, value: trimmed };
  const digits = trimmed.replace(/\s/g, "");
  if (digits === "") return { ok: false, message: codeStepMessages.codeMissing };
  return /^\d{6}$/.test(digits) ? { ok: true, value: digits } : { ok: false, message: codeStepMessages.codeShape };
}
