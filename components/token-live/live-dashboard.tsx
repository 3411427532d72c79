"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { mergeTodayAnswer, todayListUrl } from "@/lib/live/today-delta";
import type { TodayTokensAnswer, TodayTokensResponse } from "@/lib/watcher/live-token-dto";
import { ConnectionStatus } from "./connection-status";
import { fetchLive, LiveFetchError, type Fetched } from "./fetch-live";
import { TokenDashboardList } from "./token-dashboard-list";

/** One request for the whole list, however many tokens are on it. */
export const DASHBOARD_POLL_MS = 3_000;
/** When every token of the day has ended, new ones are the only news: look less often. */
export const DASHBOARD_IDLE_POLL_MS = 10_000;

export function LiveDashboard({ initial, emptyAction }: { initial: TodayTokensResponse; emptyAction?: ReactNode }) {
  const queryClient = useQueryClient();
  const query = useQuery<Fetched<TodayTokensResponse>, LiveFetchError>({
    queryKey: ["tokens", "today"],
    // Changes only (ADR 0026): the poll names the version held; a 304 or a delta comes back.
    queryFn: async ({ signal }) => {
      const held = queryClient.getQueryData<Fetched<TodayTokensResponse>>(["tokens", "today"]);
      const fetched = await fetchLive<TodayTokensAnswer>(todayListUrl(held?.body), signal, held as Fetched<TodayTokensAnswer> | undefined);
      const merged = mergeTodayAnswer(held?.body, fetched.body);
      return merged ? { ...fetched, body: merged } : fetchLive<TodayTokensResponse>("/api/tokens?scope=today", signal);
    },
    initialData: () => ({ body: initial, clockOffsetMs: Date.parse(initial.serverNow) - Date.now() }),
    refetchInterval: (current) => {
      const error = current.state.error;
      if (error instanceof LiveFetchError && (error.isSessionEnded || error.isGone)) return false;
      const tokens = current.state.data?.body.tokens ?? [];
      return tokens.some((token) => !token.isFinal) ? DASHBOARD_POLL_MS : DASHBOARD_IDLE_POLL_MS;
    },
  });
  const { body, clockOffsetMs } = query.data;
  return (
    <div className="flex flex-col gap-4" data-testid="token-dashboard">
      <TokenDashboardList tokens={body.tokens} serverNow={body.serverNow} clockOffsetMs={clockOffsetMs} emptyAction={emptyAction} />
      <ConnectionStatus updatedAt={query.dataUpdatedAt} isConnectionLost={Boolean(query.error)} isStopped={false} serviceProblem={null} />
    </div>
  );
}
