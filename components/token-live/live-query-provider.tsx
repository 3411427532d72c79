"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

/**
 * React Query for the live screens. One client per page mount, in memory only: no persister, no
 * localStorage — customer data must not outlive the page on a shared counter PC.
 */
export function LiveQueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            // The poll itself retries on its next tick; quick retries would only double the load.
            retry: 1,
            refetchOnWindowFocus: true,
            gcTime: 60_000,
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
