"use client";

import type { QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { forgetTodayAnswers } from "@/lib/live/today-answers";

/**
 * The live screens' one query client in this tab, so the dashboard and the token list share one
 * poll of today's list wherever each is mounted (the result notices listen to it:
 * lib/live/today-answers.ts). Only its type is imported here: a page that polls nothing loads no
 * React Query (ADR 0034).
 */
let shared: QueryClient | undefined;

export function sharedLiveQueryClient(create: () => QueryClient): QueryClient {
  shared ??= create();
  return shared;
}

/**
 * Rendered once by the signed-in shell: leaving it (signing out, the session ending) empties the
 * client and the last answer kept for the notices, so no customer data polled in the shell
 * outlives it on a shared counter PC.
 */
export function LiveQueryScope() {
  useEffect(
    () => () => {
      shared?.clear();
      shared = undefined;
      forgetTodayAnswers();
    },
    [],
  );
  return null;
}
