"use client";

import { X } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { LiveQueryProvider } from "@/components/token-live/live-query-provider";
import { StateBadge } from "@/components/token-live/state-badge";
import { useTodayTokens } from "@/components/token-live/use-today-tokens";
import type { Fetched } from "@/components/token-live/fetch-live";
import { newNoticeWatch, tokensThatEnded } from "@/lib/live/result-notices";
import type { LiveTokenSummary, TodayTokensResponse } from "@/lib/live/dto";
import { playChime, resumeAudioOnFirstGesture, useChimePreference } from "./chime";

/**
 * Results you notice: when one of the teller's tokens ends while they are on any
 * Veridesk page, a notice appears in the corner with a link to the token, the tab's title says
 * how many results wait (seen from another tab or window too), and the chime plays if they turned
 * it on. It listens to today's list: on the home page the dashboard's own poll, elsewhere the same
 * list without counting the tokens as watched (the service is not asked more often for it).
 */

type Notice = Pick<LiveTokenSummary, "id" | "token" | "state" | "kind" | "stateLabel" | "idTypeLabel" | "maskedIdNumber">;

const MAX_NOTICES = 4;
const titlePrefix = /^\(\d+\) Results? · /;

/** Loaded after the page (DeferredResultNotifier): it shows nothing until a poll has answered. */
export function ResultNotifier({ userId }: { userId: string }) {
  return (
    <LiveQueryProvider>
      <ResultNotices userId={userId} />
    </LiveQueryProvider>
  );
}

function ResultNotices({ userId }: { userId: string }) {
  const pathname = usePathname();
  const queryClient = useQueryClient();
  // Keeps today's list polled on every page (on the home page, the dashboard's own poll).
  useTodayTokens({ isWatching: pathname === "/" });
  const [isChimeOn] = useChimePreference(userId);
  const [notices, setNotices] = useState<Notice[]>([]);
  const current = useRef({ pathname, isChimeOn });
  useEffect(() => {
    current.current = { pathname, isChimeOn };
  }, [pathname, isChimeOn]);

  useEffect(() => resumeAudioOnFirstGesture(), []);

  // Every answer of today's list, whichever poll fetched it: lib/live/result-notices.ts decides
  // which tokens ended.
  useEffect(() => {
    const watch = newNoticeWatch();
    const note = (answer: TodayTokensResponse) => {
      const ended = tokensThatEnded(watch, answer.tokens, answer.serverNow);
      if (ended.length === 0) return;
      // The token's own open page already shows its result, unless the teller looks at another tab.
      const news = ended.filter((token) => document.hidden || current.current.pathname !== `/tokens/${token.id}`);
      if (news.length > 0) setNotices((shown) => [...news, ...shown.filter((notice) => !news.some((token) => token.id === notice.id))].slice(0, MAX_NOTICES));
      if (current.current.isChimeOn) playChime();
    };
    for (const [, data] of queryClient.getQueriesData<Fetched<TodayTokensResponse>>({ queryKey: ["tokens", "today"] })) {
      if (data) note(data.body);
    }
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== "updated" || event.action.type !== "success") return;
      const [scope, list] = event.query.queryKey as unknown[];
      if (scope !== "tokens" || list !== "today") return;
      note((event.query.state.data as Fetched<TodayTokensResponse>).body);
    });
  }, [queryClient]);

  // Opening the token counts as seeing its notice.
  const [noticesPath, setNoticesPath] = useState(pathname);
  if (noticesPath !== pathname) {
    setNoticesPath(pathname);
    setNotices((shown) => shown.filter((notice) => pathname !== `/tokens/${notice.id}`));
  }

  // The title carries the count in front of each page's own title. Next writes a page's title
  // after a navigation, whenever it gets to it: watch the head and put the count back each time.
  const count = notices.length;
  useEffect(() => {
    const apply = () => {
      const pageTitle = document.title.replace(titlePrefix, "");
      const wanted = count > 0 ? `(${count}) ${count === 1 ? "Result" : "Results"} · ${pageTitle}` : pageTitle;
      if (document.title !== wanted) document.title = wanted;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [count]);

  const dismiss = (id: string) => setNotices((shown) => shown.filter((notice) => notice.id !== id));

  return (
    <section aria-label="Token results" aria-live="polite" className="no-print pointer-events-none fixed inset-x-4 top-20 z-40 flex flex-col items-end gap-3 sm:left-auto sm:w-96">
      {notices.map((notice) => (
        <div
          key={notice.id}
          role="status"
          className="pointer-events-auto flex w-full items-start gap-3 rounded-card border border-line-strong bg-surface p-4 shadow-lg"
          data-testid="result-notice"
          data-token-id={notice.id}
        >
          <div className="flex min-w-0 flex-1 flex-col gap-2">
            <p className="font-semibold text-ink">
              {notice.token ? (
                <>
                  Token <span className="font-mono">{notice.token}</span> has ended
                </>
              ) : (
                "A token request has ended"
              )}
            </p>
            <StateBadge state={notice.state} kind={notice.kind} className="self-start" />
            <p className="text-sm text-ink-muted">
              {notice.idTypeLabel} <span className="font-mono">{notice.maskedIdNumber}</span>
            </p>
            <Link href={`/tokens/${notice.id}`} className="inline-flex min-h-11 items-center self-start font-semibold text-brand-700 underline" onClick={() => dismiss(notice.id)}>
              Open the token
            </Link>
          </div>
          <button
            type="button"
            onClick={() => dismiss(notice.id)}
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-control text-ink-muted hover:bg-surface-sunken hover:text-ink"
          >
            <X aria-hidden className="size-5" />
            <span className="sr-only">Dismiss the notice of token {notice.token ?? "request"}</span>
          </button>
        </div>
      ))}
    </section>
  );
}
