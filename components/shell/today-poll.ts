import { endsPolling, type Fetched } from "@/components/token-live/fetch-live";
import { fetchTodayList, todayPollInterval } from "@/components/token-live/fetch-today-list";
import type { TodayTokensResponse } from "@/lib/live/dto";

/**
 * Today's list polled for the result notices on a page with no live screen (a token form, the
 * review), without React Query (ADR 0057), on the live screens' cadence and protocol
 * (fetch-today-list.ts) but without counting its open tokens as watched: looking elsewhere keeps
 * them on the slow cadence. As React Query does for the screens, it asks nothing while the tab is
 * hidden and asks at once when it is shown again; it stops for good once the session has ended.
 * Returns the way to stop it.
 */
export function pollTodayList(onAnswer: (answer: TodayTokensResponse) => void): () => void {
  let held: Fetched<TodayTokensResponse> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let isStopped = false;

  const poll = async () => {
    timer = undefined;
    if (isStopped || inFlight) return;
    if (document.hidden) return; // picked up again by the visibility change
    inFlight = new AbortController();
    try {
      held = await fetchTodayList(held, { isWatching: false, signal: inFlight.signal });
      onAnswer(held.body);
    } catch (error) {
      if (endsPolling(error)) isStopped = true;
      // Any other fault (the connection dropped) is tried again on the next tick.
    } finally {
      inFlight = undefined;
    }
    if (!isStopped) timer = setTimeout(() => void poll(), todayPollInterval(held?.body));
  };

  const onVisibility = () => {
    if (document.hidden || isStopped) return;
    clearTimeout(timer);
    void poll();
  };
  document.addEventListener("visibilitychange", onVisibility);
  // The first poll after the current task, not in it: between two live screens (the token list to
  // the dashboard) one screen's end and the next one's start come in one commit, and a poll begun
  // in between would only be aborted.
  timer = setTimeout(() => void poll(), 0);
  return () => {
    isStopped = true;
    clearTimeout(timer);
    inFlight?.abort();
    document.removeEventListener("visibilitychange", onVisibility);
  };
}
