/**
 * The two kinds of token Veridesk issues: a fingerprint token for a customer at the counter, a
 * remote token sent to the customer's phone. Plain data (no server-only import): the database
 * schema, server code and client components all read it.
 */
export const TOKEN_KINDS = ["fingerprint", "remote"] as const;

export type TokenKind = (typeof TOKEN_KINDS)[number];

export function isTokenKind(value: unknown): value is TokenKind {
  return typeof value === "string" && (TOKEN_KINDS as readonly string[]).includes(value);
}

/**
 * Whether an issuing attempt sent the customer a link (by SMS or by e-mail): only then has the
 * customer a token to read out, so only then can a supervisor enter it from the customer's SMS.
 * The one rule of the SMS path (lib/tokens/attach-sms-token.ts), the Operations page's attempts
 * and the supervisor's review words.
 */
export function wasLinkSent(attempt: { kind: TokenKind; sendSms: boolean | null | undefined; hasEmail: boolean }): boolean {
  return attempt.kind === "remote" && (attempt.sendSms === true || attempt.hasEmail);
}
