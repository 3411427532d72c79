"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { publishTodayAnswer, screenPollStarted } from "@/lib/live/today-answers";
import type { TodayTokensResponse } from "@/lib/live/dto";
import { endsPolling, type LiveFetchError, type Fetched } from "./fetch-live";
import { fetchTodayList, todayPollInterval } from "./fetch-today-list";

/**
 * Today's tokens, polled for a live screen (the dashboard, the token list), its open tokens
 * followed on the fast cadence. Both screens ask with the same key, so one request serves both;
 * every answer goes out to the result notices too (lib/live/today-answers.ts), which then need
 * no poll of their own.
 */
export function useTodayTokens({ initial }: { initial?: TodayTokensResponse }) {
  const queryClient = useQueryClient();
  const queryKey = ["tokens", "today"];
  const query = useQuery<Fetched<TodayTokensResponse>, LiveFetchError>({
    queryKey,
    queryFn: ({ signal }) => fetchTodayList(queryClient.getQueryData<Fetched<TodayTokensResponse>>(queryKey), { isWatching: true, signal }),
    initialData: initial ? () => ({ body: initial, clockOffsetMs: Date.parse(initial.serverNow) - Date.now() }) : undefined,
    refetchInterval: (current) => {
      if (endsPolling(current.state.error)) return false;
      return todayPollInterval(current.state.data?.body);
    },
  });
  useEffect(() => screenPollStarted(), []);
  const answer = query.data?.body;
  useEffect(() => {
    if (answer) publishTodayAnswer(answer);
  }, [answer]);
  return query;
}
