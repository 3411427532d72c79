"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { mergeTodayAnswer, todayListUrl } from "@/lib/live/today-delta";
import type { TodayTokensAnswer, TodayTokensResponse } from "@/lib/live/dto";
import { fetchLive, LiveFetchError, type Fetched } from "./fetch-live";

/** One request for the whole list, however many tokens are on it. */
export const DASHBOARD_POLL_MS = 3_000;
/** When every token of the day has ended, new ones are the only news: look less often. */
export const DASHBOARD_IDLE_POLL_MS = 10_000;

/**
 * Today's tokens, polled: the dashboard shows them (`isWatching`: its open tokens are followed on
 * the fast cadence) and the result notifier listens on every other page (not watching). On the
 * home page both ask with the same key, so one request serves both.
 */
export function useTodayTokens({ isWatching, initial }: { isWatching: boolean; initial?: TodayTokensResponse }) {
  const queryClient = useQueryClient();
  const queryKey = ["tokens", "today", isWatching ? "watching" : "elsewhere"];
  return useQuery<Fetched<TodayTokensResponse>, LiveFetchError>({
    queryKey,
    // Changes only (ADR 0026): the poll names the version held; a 304 or a delta comes back.
    queryFn: async ({ signal }) => {
      const held = queryClient.getQueryData<Fetched<TodayTokensResponse>>(queryKey);
      const fetched = await fetchLive<TodayTokensAnswer>(todayListUrl(held?.body, { isWatching }), signal, held as Fetched<TodayTokensAnswer> | undefined);
      const merged = mergeTodayAnswer(held?.body, fetched.body);
      return merged ? { ...fetched, body: merged } : fetchLive<TodayTokensResponse>(todayListUrl(undefined, { isWatching }), signal);
    },
    initialData: initial ? () => ({ body: initial, clockOffsetMs: Date.parse(initial.serverNow) - Date.now() }) : undefined,
    refetchInterval: (current) => {
      const error = current.state.error;
      if (error instanceof LiveFetchError && (error.isSessionEnded || error.isGone)) return false;
      const tokens = current.state.data?.body.tokens ?? [];
      return tokens.some((token) => !token.isFinal) ? DASHBOARD_POLL_MS : DASHBOARD_IDLE_POLL_MS;
    },
  });
}
