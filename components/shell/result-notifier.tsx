"use client";

import { X } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { StateBadge } from "@/components/token-live/state-badge";
import { newNoticeWatch, tokensThatEnded } from "@/lib/live/result-notices";
import { listenToTodayAnswers, publishTodayAnswer, watchScreenPolls } from "@/lib/live/today-answers";
import type { LiveTokenSummary, TodayTokensResponse } from "@/lib/live/dto";
import { playChime, resumeAudioOnFirstGesture, useChimePreference } from "./chime";
import { pollTodayList } from "./today-poll";

/**
 * Results you notice: when one of the teller's tokens ends while they are on any
 * Veridesk page, a notice appears in the corner with a link to the token, the tab's title says
 * how many results wait (seen from another tab or window too), and the chime plays if they turned
 * it on. It listens to today's list (lib/live/today-answers.ts): where a live screen polls it (the
 * dashboard, the token list), that poll's answers; elsewhere a poll of its own, which does not
 * count the tokens as watched (the service is not asked more often for them).
 */

type Notice = Pick<LiveTokenSummary, "id" | "token" | "state" | "kind" | "stateLabel" | "idTypeLabel" | "maskedIdNumber">;

const MAX_NOTICES = 4;
const titlePrefix = /^\(\d+\) Results? · /;

/** Loaded after the page (DeferredResultNotifier): it shows nothing until a poll has answered. */
export function ResultNotifier({ userId }: { userId: string }) {
  const pathname = usePathname();
  // Today's list stays polled on every page: by its own poll while no live screen polls it.
  useEffect(() => {
    let stopOwnPoll: (() => void) | undefined;
    const stopWatching = watchScreenPolls((isScreenPolling) => {
      if (isScreenPolling) {
        stopOwnPoll?.();
        stopOwnPoll = undefined;
      } else {
        stopOwnPoll ??= pollTodayList(publishTodayAnswer);
      }
    });
    return () => {
      stopWatching();
      stopOwnPoll?.();
    };
  }, []);
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
    return listenToTodayAnswers(note);
  }, []);

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
