/** Every token is valid for 15 minutes from generation (spec, Limits). Plain data: client-safe. */
export const TOKEN_LIFETIME_MS = 15 * 60_000;

export function expiryOf(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + TOKEN_LIFETIME_MS);
}

/** The lifetime as staff read it ("15 minutes"): every sentence that names it writes this. */
export const TOKEN_LIFETIME_WORDS = `${TOKEN_LIFETIME_MS / 60_000} minutes`;
