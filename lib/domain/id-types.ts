/**
 * The customer ID documents a token can be issued against. Plain data (no server-only import):
 * the database schema (its `token_id_type` enum), the token forms, review and the live views all
 * read it. The service's own names for the fields live in lib/validation/remote-token-payload.ts.
 */
export const ID_TYPES = ["GHANA_CARD", "VOTER", "PASSPORT", "DRIVER_LICENCE"] as const;

export type IdType = (typeof ID_TYPES)[number];

export const idTypeLabels: Record<IdType, string> = {
  GHANA_CARD: "Ghana Card",
  VOTER: "Voter ID",
  PASSPORT: "Passport",
  DRIVER_LICENCE: "Driver licence",
};

export function isIdType(value: unknown): value is IdType {
  return typeof value === "string" && (ID_TYPES as readonly string[]).includes(value);
}
