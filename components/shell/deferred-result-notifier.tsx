"use client";

import dynamic from "next/dynamic";

/**
 * The result notices, loaded after the page rather than with it (ADR 0034): they show nothing
 * until today's list has been polled. They bring no React Query (ADR 0057): a page that polls
 * nothing itself (a token form, the review) loads none.
 */
export const DeferredResultNotifier = dynamic(() => import("./result-notifier").then((module) => module.ResultNotifier), { ssr: false });
