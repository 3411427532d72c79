/** Every token is valid for 15 minutes from generation (spec, Limits). Plain data: client-safe. */
export const TOKEN_LIFETIME_MS = 15 * 60_000;

export function expiryOf(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + TOKEN_LIFETIME_MS);
}
