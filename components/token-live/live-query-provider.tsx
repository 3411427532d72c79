"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { sharedLiveQueryClient } from "./live-query-scope";

function newLiveQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The poll itself retries on its next tick; quick retries would only double the load.
        retry: 1,
        refetchOnWindowFocus: true,
        gcTime: 60_000,
      },
    },
  });
}

/**
 * React Query for a live screen, in memory only: no persister, no localStorage — customer data
 * must not outlive the signed-in shell on a shared counter PC (LiveQueryScope empties it). In the
 * browser every live screen gets the tab's one client; on the server each render its own, so no
 * request ever sees another's cache.
 */
export function LiveQueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(() => (typeof window === "undefined" ? newLiveQueryClient() : sharedLiveQueryClient(newLiveQueryClient)));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
