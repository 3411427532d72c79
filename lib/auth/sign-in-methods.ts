/**
 * How a session was signed in, kept on the session row (`auth_sessions.auth_method`). Read from
 * the better-auth endpoint that created it, so no client can choose it.
 */
export const SIGN_IN_METHODS = ["password", "totp", "backup_code", "passkey", "sso"] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** better-auth endpoint path → the method a session created there was signed in with. */
const methodByEndpoint: Readonly<Record<string, SignInMethod>> = {
  "/sign-in/username": "password",
  "/two-factor/verify-totp": "totp",
  "/two-factor/verify-backup-code": "backup_code",
  "/passkey/verify-authentication": "passkey",
  "/sso/callback/bank": "sso",
};

/**
 * The method of a session created by `endpointPath`. Anything else (a session made by a server
 * call with no endpoint, e.g. a test) counts as a password: the weakest, never more.
 */
export function signInMethodOf(endpointPath: string | undefined): SignInMethod {
  return (endpointPath && methodByEndpoint[endpointPath]) || "password";
}

export function isSignInMethod(value: unknown): value is SignInMethod {
  return typeof value === "string" && (SIGN_IN_METHODS as readonly string[]).includes(value);
}

/**
 * Whether a session of this method proved a second factor: an authenticator code, a backup code,
 * a passkey that verified its user, or the bank's identity provider (which checked its own second
 * factor; lib/auth/sso refuses a sign-in without one when SSO_REQUIRE_MFA is on).
 */
export function carriesSecondFactor(method: SignInMethod): boolean {
  return method !== "password";
}
