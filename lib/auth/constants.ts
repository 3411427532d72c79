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

/**
 * The only page (with change-password before it) open to a session that must set up a second
 * factor and has none: every other page sends it here until an authenticator is confirmed.
 */
export const SECOND_FACTOR_PATH = "/second-factor";

/** Set by proxy.ts on page requests: the path (and query) to come back to after signing in. */
export const REQUEST_PATH_HEADER = "x-veridesk-path";

/**
 * Where the client address resolved through the trusted-proxy setting travels into better-auth.
 * `handleAuthRequest` deletes whatever a client sent under this name before setting it.
 */
export const RESOLVED_IP_HEADER = "x-veridesk-client-ip";

export function isSessionCookieName(name: string): boolean {
  return name === SESSION_COOKIE_SUFFIX || name === `__Secure-${SESSION_COOKIE_SUFFIX}`;
}
