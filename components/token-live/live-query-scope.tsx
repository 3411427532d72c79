"use client";

import type { QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

/**
 * The live screens' one query client in this tab, so the dashboard, the token list and the result
 * notifier share one poll of today's list wherever each is mounted. Only its type is imported
 * here: a page that polls nothing loads no React Query (ADR 0034).
 */
let shared: QueryClient | undefined;

export function sharedLiveQueryClient(create: () => QueryClient): QueryClient {
  shared ??= create();
  return shared;
}

/**
 * Rendered once by the signed-in shell: leaving it (signing out, the session ending) empties the
 * client, so no customer data it polled outlives the shell on a shared counter PC.
 */
export function LiveQueryScope() {
  useEffect(
    () => () => {
      shared?.clear();
      shared = undefined;
    },
    [],
  );
  return null;
}
