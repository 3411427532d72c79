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
