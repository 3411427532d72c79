/**
 * What the sign-in form says for each answer of the sign-in endpoint. Wrong username and wrong
 * password read the same, so the form never tells whether an account exists.
 */
export const signInMessages = {
  invalidCredentials: "The username or password is not right. Check both and try again.",
  // With the bank sign-in on, a right password of an ordinary account reads as a wrong one (no
  // password oracle), so the words say both.
  invalidCredentialsBreakGlassOnly:
    "The username or password is not right, or this is not a break-glass account. Everyone else signs in with “Sign in with your bank account”.",
  rateLimited: "Too many sign-in attempts from this computer. Wait a minute, then try again.",
  disabled: "This account is disabled. Ask your administrator.",
  bankSignInOnly: "Use your bank sign-in: this account signs in with “Sign in with your bank account”.",
  passkeyRequired: "This account signs in with its passkey, not its password alone. Press “Use a passkey” below.",
  unreachable: "Veridesk could not be reached. Check the network connection and try again.",
  unexpected: "Sign-in did not work because of a problem on our side. Try again, and call your administrator if it keeps happening.",
} as const;

export type SignInAnswer = { status: number; code?: string; message?: string };

/** Chooses the sentence for a failed sign-in from the endpoint's status and error code. */
export function signInErrorMessage(answer: SignInAnswer, options: { isBreakGlassOnly?: boolean } = {}): string {
  if (answer.code === "ACCOUNT_LOCKED" && answer.message) return answer.message;
  if (answer.code === "ADDRESS_LIMITED" && answer.message) return answer.message;
  if (answer.code === "ACCOUNT_DISABLED") return signInMessages.disabled;
  if (answer.code === "USE_BANK_SIGN_IN") return signInMessages.bankSignInOnly;
  if (answer.code === "PASSKEY_REQUIRED") return signInMessages.passkeyRequired;
  if (answer.code === "DEMO_ACCOUNT_REFUSED" && answer.message) return answer.message;
  if (answer.status === 429) return signInMessages.rateLimited;
  if (answer.status === 401 || answer.status === 400 || answer.status === 422) {
    return options.isBreakGlassOnly ? signInMessages.invalidCredentialsBreakGlassOnly : signInMessages.invalidCredentials;
  }
  return signInMessages.unexpected;
}

export const endedSessionNotices: Record<string, { tone: "info" | "warning"; title: string; text: string }> = {
  idle: {
    tone: "warning",
    title: "You were signed out after a period without activity",
    text: "Counter computers are shared, so Veridesk signs you out when it is left alone. Sign in again to continue.",
  },
  absolute: {
    tone: "info",
    title: "Your session reached its time limit",
    text: "Sessions last a working day at most. Sign in again to continue.",
  },
  disabled: {
    tone: "warning",
    title: "Your session has ended",
    text: "Your account was changed by an administrator. Sign in again, or ask your administrator if that fails.",
  },
  "signed-out": { tone: "info", title: "You have signed out", text: "Sign in again whenever you need to." },
  "signed-out-bank-open": {
    tone: "warning",
    title: "You have signed out of Veridesk",
    text: "Your bank sign-in is still open in this browser. On a shared computer, sign out of the bank too.",
  },
};
