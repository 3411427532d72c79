"use client";

import { Search } from "lucide-react";
import { useId, useState } from "react";
import { cn } from "@/components/ui/cn";
import { stateFilterLabels, stateFilters, visibleTokens, type StateFilter } from "@/lib/live/token-list-view";
import type { TodayTokensResponse } from "@/lib/live/dto";
import { ConnectionStatus } from "./connection-status";
import { TokenDashboardList } from "./token-dashboard-list";
import { useTodayTokens } from "./use-today-tokens";

/**
 * Today's tokens with a search and state filters (ADR 0028): the same live list as the home
 * page's, on the same poll (one request for both, and the open tokens count as watched), so a
 * token's state reads the same everywhere. The teller finds a customer who calls back by the
 * token, the reference or the last digits of the ID number. A link may choose the first filter
 * (the home page's "tokens with an unknown outcome": `/tokens?state=outcome_unknown`).
 */
export function LiveTokenList({ initial, initialFilter = "all" }: { initial: TodayTokensResponse; initialFilter?: StateFilter }) {
  const query = useTodayTokens({ initial });
  const { body, clockOffsetMs } = query.data ?? { body: initial, clockOffsetMs: 0 };
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<StateFilter>(initialFilter);
  const searchId = useId();
  const shown = visibleTokens(body.tokens, filter, search);
  const isFiltered = filter !== "all" || search.trim() !== "";
  return (
    <div className="flex flex-col gap-4" data-testid="token-list">
      <div className="flex flex-col gap-3 rounded-card border border-line bg-surface p-4 no-print" role="search">
        <label htmlFor={searchId} className="font-semibold">
          Find a token
        </label>
        <div className="relative">
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-ink-muted" />
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            aria-describedby={`${searchId}-hint`}
            className="h-11 w-full rounded-control border border-line-strong bg-surface pr-3 pl-10 text-base"
            autoComplete="off"
          />
        </div>
        <p id={`${searchId}-hint`} className="text-sm text-ink-muted">
          The token, the reference, or the last digits of the ID number.
        </p>
        <div role="group" aria-label="Show" className="flex flex-wrap gap-2">
          {stateFilters.map((candidate) => (
            <button
              key={candidate}
              type="button"
              aria-pressed={filter === candidate}
              onClick={() => setFilter(candidate)}
              className={cn(
                "min-h-11 rounded-full border px-4 font-semibold",
                filter === candidate ? "border-brand-700 bg-brand-700 text-ink-inverse" : "border-line-strong bg-surface text-ink hover:bg-surface-sunken",
              )}
            >
              {stateFilterLabels[candidate]}
            </button>
          ))}
        </div>
      </div>
      <p className="text-sm text-ink-muted" aria-live="polite" data-testid="token-list-count">
        {isFiltered ? `Showing ${shown.length} of ${body.tokens.length} tokens.` : `${body.tokens.length} tokens today.`}
      </p>
      <TokenDashboardList
        tokens={shown}
        serverNow={body.serverNow}
        clockOffsetMs={clockOffsetMs}
        emptyTitle={isFiltered ? "No token matches" : undefined}
        emptyAction={isFiltered ? "Clear the search or choose All." : undefined}
        isShowingUnknownOnly={filter === "outcome_unknown"}
      />
      <ConnectionStatus updatedAt={query.dataUpdatedAt} isConnectionLost={Boolean(query.error)} isStopped={false} serviceProblem={null} />
    </div>
  );
}
