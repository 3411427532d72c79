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
