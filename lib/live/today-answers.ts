import type { TodayTokensResponse } from "./dto";

/**
 * Every answer of today's list in this tab, whichever poll fetched it, for whoever listens (the
 * result notices, ADR 0028): a live screen (the dashboard, the token list) publishes the answers
 * of its own poll and holds `screenPollStarted` while it polls; the notices poll the list
 * themselves only while no screen does (components/shell/today-poll.ts), so a page never asks for
 * the list twice. Plain data, no React Query: a page that polls nothing, a token form, loads
 * none (ADR 0057).
 */

type Listener = (answer: TodayTokensResponse) => void;

const answerListeners = new Set<Listener>();
const screenPollListeners = new Set<(isScreenPolling: boolean) => void>();
let latest: TodayTokensResponse | undefined;
let screenPolls = 0;

export function publishTodayAnswer(answer: TodayTokensResponse): void {
  latest = answer;
  for (const listener of answerListeners) listener(answer);
}

/** Listens from now on, starting with the latest answer if there is one; returns the way to stop. */
export function listenToTodayAnswers(listener: Listener): () => void {
  answerListeners.add(listener);
  if (latest) listener(latest);
  return () => answerListeners.delete(listener);
}

/** A live screen begins polling today's list; returns its end. */
export function screenPollStarted(): () => void {
  screenPolls += 1;
  if (screenPolls === 1) for (const listener of screenPollListeners) listener(true);
  let isEnded = false;
  return () => {
    if (isEnded) return;
    isEnded = true;
    screenPolls -= 1;
    if (screenPolls === 0) for (const listener of screenPollListeners) listener(false);
  };
}

/** Told at once whether a screen polls, then at every change; returns the way to stop. */
export function watchScreenPolls(listener: (isScreenPolling: boolean) => void): () => void {
  screenPollListeners.add(listener);
  listener(screenPolls > 0);
  return () => screenPollListeners.delete(listener);
}

/** Leaving the signed-in shell: no customer data polled in it outlives it (LiveQueryScope). */
export function forgetTodayAnswers(): void {
  latest = undefined;
}
