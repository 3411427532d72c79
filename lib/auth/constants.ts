/**
 * Names shared by proxy.ts (which must stay free of server-only imports) and lib/auth.
 */

/** better-auth's cookie is `<prefix>.session_token`, with `__Secure-` in front over HTTPS. */
export const COOKIE_PREFIX = "veridesk";
export const SESSION_COOKIE_SUFFIX = `${COOKIE_PREFIX}.session_token`;

/**
 * The only page open to staff who signed in with a temporary password (ADR 0012): every other
 * page sends them here until they have chosen their own.
 */
export const CHANGE_PASSWORD_PATH = "/change-password";

/** Set by proxy.ts on page requests: the path (and query) to come back to after signing in. */
export const REQUEST_PATH_HEADER = "x-veridesk-path";

export function isSessionCookieName(name: string): boolean {
  return name === SESSION_COOKIE_SUFFIX || name === `__Secure-${SESSION_COOKIE_SUFFIX}`;
}
