import type { LiveTokenSummary, TodayTokensAnswer, TodayTokensResponse } from "./dto";

/**
 * The dashboard's side of the today-list protocol (ADR 0026), pure so it is tested alone: merges
 * what GET /api/tokens?scope=today answered into the list the page holds.
 *
 *  - a whole list replaces what the page held;
 *  - a delta (`since` = the version the page held) lists every id in order and only the tokens
 *    that are new or changed; the others are taken from the page's copy, and an id no longer
 *    listed is dropped. A delta for a version the page does not hold (a race between two polls)
 *    cannot be merged: null, and the caller asks for the whole list.
 */
export function mergeTodayAnswer(held: TodayTokensResponse | undefined, answer: TodayTokensAnswer): TodayTokensResponse | null {
  if ("tokens" in answer) return answer;
  if (!held || held.version !== answer.since) return null;
  const byId = new Map<string, LiveTokenSummary>(held.tokens.map((token) => [token.id, token]));
  for (const token of answer.changed) byId.set(token.id, token);
  const tokens: LiveTokenSummary[] = [];
  for (const id of answer.order) {
    const token = byId.get(id);
    if (!token) return null;
    tokens.push(token);
  }
  return { serverNow: answer.serverNow, version: answer.version, branchName: answer.branchName, tokens };
}

/** A 304: the same list, with the server's clock of this answer. */
export function unchangedTodayList(held: TodayTokensResponse, serverNow: string | null): TodayTokensResponse {
  return serverNow ? { ...held, serverNow } : held;
}

/**
 * The poll URL: naming the version held, so an unchanged list costs a 304 and a changed one a delta.
 * `isWatching: false` (the result notifier on pages other than the dashboard) asks the server not
 * to count the list's open tokens as watched: looking elsewhere keeps them on the slow cadence.
 */
export function todayListUrl(held: TodayTokensResponse | undefined, { isWatching = true }: { isWatching?: boolean } = {}): string {
  const params = ["scope=today", ...(held?.version ? [`since=${encodeURIComponent(held.version)}`] : []), ...(isWatching ? [] : ["watch=0"])];
  return `/api/tokens?${params.join("&")}`;
}
