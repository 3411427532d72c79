import { mergeTodayAnswer, todayListUrl } from "@/lib/live/today-delta";
import type { TodayTokensAnswer, TodayTokensResponse } from "@/lib/live/dto";
import { fetchLive, type Fetched } from "./fetch-live";

/** One request for the whole list, however many tokens are on it. */
export const DASHBOARD_POLL_MS = 3_000;
/** When every token of the day has ended, new ones are the only news: look less often. */
export const DASHBOARD_IDLE_POLL_MS = 10_000;

/** How soon today's list is asked for again: often while a token is open. */
export function todayPollInterval(list: TodayTokensResponse | undefined): number {
  return (list?.tokens ?? []).some((token) => !token.isFinal) ? DASHBOARD_POLL_MS : DASHBOARD_IDLE_POLL_MS;
}

/**
 * One poll of today's list, changes only (ADR 0026): names the version held, so a 304 or a delta
 * comes back and is merged into it; a delta that cannot be merged is followed by the whole list.
 */
export async function fetchTodayList(held: Fetched<TodayTokensResponse> | undefined, { isWatching, signal }: { isWatching: boolean; signal?: AbortSignal }): Promise<Fetched<TodayTokensResponse>> {
  const fetched = await fetchLive<TodayTokensAnswer>(todayListUrl(held?.body, { isWatching }), signal, held as Fetched<TodayTokensAnswer> | undefined);
  const merged = mergeTodayAnswer(held?.body, fetched.body);
  return merged ? { ...fetched, body: merged } : fetchLive<TodayTokensResponse>(todayListUrl(undefined, { isWatching }), signal);
}
