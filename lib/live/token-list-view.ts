import type { TokenStateName } from "@/lib/tokens/state";
import type { LiveTokenSummary } from "./dto";

/**
 * What the token list shows of today's tokens (ADR 0028), pure so it is tested alone: the state
 * filter, the search (a token, a reference, or the last digits of an ID number — what a teller
 * has when a customer calls back), and the order: open tokens first, each part newest first.
 */

export const stateFilters = ["all", "open", "successful", "failed", "expired", "outcome_unknown"] as const;
export type StateFilter = (typeof stateFilters)[number];

export const stateFilterLabels: Record<StateFilter, string> = {
  all: "All",
  open: "Open",
  successful: "Successful",
  failed: "Failed",
  expired: "Expired",
  outcome_unknown: "Unknown outcome",
};

const openStates: readonly TokenStateName[] = ["waiting", "in_progress"];

export function isOpenState(state: TokenStateName): boolean {
  return openStates.includes(state);
}

function matchesState(token: LiveTokenSummary, filter: StateFilter): boolean {
  if (filter === "all") return true;
  if (filter === "open") return isOpenState(token.state);
  // "Failed" takes the tokens the service refused as invalid too: neither gave a result.
  if (filter === "failed") return token.state === "failed" || token.state === "invalid";
  return token.state === filter;
}

/** Letters and digits only, upper case: "gha 716-0" finds "GHA-•••••016-0", "ab12 cd" finds "AB12CD". */
function searchable(text: string): string {
  return text.normalize("NFKC").toUpperCase().replace(/[^A-Z0-9]/g, "");
}

function matchesSearch(token: LiveTokenSummary, search: string): boolean {
  const wanted = searchable(search);
  if (wanted === "") return true;
  return [token.token ?? "", token.reference, token.maskedIdNumber].some((field) => searchable(field).includes(wanted));
}

export function visibleTokens(tokens: readonly LiveTokenSummary[], filter: StateFilter, search: string): LiveTokenSummary[] {
  return pinOpenFirst(tokens.filter((token) => matchesState(token, filter) && matchesSearch(token, search)));
}

/** Open tokens on top (they still need the teller), the order within each part kept (newest first). */
export function pinOpenFirst(tokens: readonly LiveTokenSummary[]): LiveTokenSummary[] {
  return [...tokens.filter((token) => isOpenState(token.state)), ...tokens.filter((token) => !isOpenState(token.state))];
}
