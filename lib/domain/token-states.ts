/**
 * The live states of an issued token, as lib/tokens/state.ts derives them, and the words every
 * screen shows for them. Plain data (no server-only import): the database schema (its
 * `token_live_state` enum), server code and client components all read it.
 */
export const TOKEN_STATES = ["waiting", "in_progress", "successful", "failed", "expired", "invalid", "outcome_unknown"] as const;

export type TokenState = (typeof TOKEN_STATES)[number];

/** Words of each state, shared by every screen that shows one. */
export const tokenStateLabels: Record<TokenState, string> = {
  waiting: "Waiting for customer",
  in_progress: "Verification in progress",
  successful: "Successful",
  failed: "Failed",
  expired: "Expired",
  invalid: "Invalid",
  outcome_unknown: "Outcome unknown",
};
