import "server-only";
import type { TokenState } from "./types";

/** The service's state messages are prose; compare them without case or stray spacing. */
function normaliseMessage(message: string): string {
  return message.trim().replace(/\s+/g, " ").toLowerCase();
}

const tokenStateByMessage: Record<string, TokenState["state"]> = {
  "pending token": "pending",
  "token has already been used": "used",
  "invalid token": "invalid",
};

/** The state named by one of the three check_token_status messages, or undefined for any other text. */
export function readTokenStateMessage(message: string): TokenState["state"] | undefined {
  return tokenStateByMessage[normaliseMessage(message)];
}

export function isInvalidTokenMessage(message: string): boolean {
  return readTokenStateMessage(message) === "invalid";
}

/**
 * Wording a service plausibly uses when a token exists but has no verification result yet. Only
 * consulted for 4xx answers of token_status, whose shape the provider does not document: a 4xx
 * that says nothing of the kind is still a rejection. A bare "Not Found" is left out on purpose:
 * it is what a wrong base URL produces, and reading it as "no result yet" would hide that forever.
 */
const noResultYetPattern =
  /pending|already been used|no (verification )?results?|not (yet )?(been )?(used|verified|completed|available)|no records?|(result|record|verification)s? not found/;

export function saysNoResultYet(message: string): boolean {
  return noResultYetPattern.test(normaliseMessage(message));
}
