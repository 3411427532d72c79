"use client";

import type { ReactNode } from "react";
import type { TodayTokensResponse } from "@/lib/live/dto";
import { ConnectionStatus } from "./connection-status";
import { TokenDashboardList } from "./token-dashboard-list";
import { useTodayTokens } from "./use-today-tokens";

export function LiveDashboard({ initial, emptyAction }: { initial: TodayTokensResponse; emptyAction?: ReactNode }) {
  const query = useTodayTokens({ initial });
  const { body, clockOffsetMs } = query.data ?? { body: initial, clockOffsetMs: 0 };
  return (
    <div className="flex flex-col gap-4" data-testid="token-dashboard">
      <TokenDashboardList tokens={body.tokens} serverNow={body.serverNow} clockOffsetMs={clockOffsetMs} emptyAction={emptyAction} />
      <ConnectionStatus updatedAt={query.dataUpdatedAt} isConnectionLost={Boolean(query.error)} isStopped={false} serviceProblem={null} />
    </div>
  );
}
