"use client";

import { CloudOff, Hourglass, RefreshCw, ServerCrash } from "lucide-react";
import { useEffect, useState } from "react";
import { formatTime } from "@/lib/bank-time";

type ConnectionStatusProps = {
  /** Browser time (ms) of the last answer from Veridesk's own server. */
  updatedAt: number;
  /** The last poll of Veridesk's own server failed (network down, server restarting). */
  isConnectionLost: boolean;
  /** Polling stopped because the state is final. */
  isStopped: boolean;
  /**
   * One token's news from the verification service. Absent on a list (the dashboard), which then
   * only says when it was itself refreshed.
   */
  freshness?: {
    /** The service's latest answer about this token (server time, ISO). */
    lastAnswerAt: string | null;
    /** Longer than this without an answer, and no fault recorded, means nobody is asking for it. */
    staleAfterMs: number;
    /** Server time minus browser time, so "how long ago" is measured on the server's clock. */
    clockOffsetMs: number;
  };
  /** Veridesk's server is fine but the verification service is not answering it. */
  serviceProblem: { message: string; since: string } | null;
};

/**
 * Says how fresh the screen is, in words that fit the trouble (ADR 0017). "Live" means the
 * verification service itself answered about this token lately, not merely that this browser
 * reached Veridesk. Three troubles are told apart: this browser cannot reach Veridesk; Veridesk
 * cannot get an answer from the service (a recorded fault); or nobody has asked the service for
 * longer than the cadence allows (a stalled or throttled watcher). None of them is a failed
 * verification, and the page says so.
 */
export function ConnectionStatus(props: ConnectionStatusProps) {
  const { isConnectionLost, isStopped, serviceProblem, freshness } = props;
  const browserNow = useBrowserNow();
  // Only compared once the browser clock ticks (browserNow is null on the server's render).
  const [openedAt] = useState(() => Date.now());
  const secondsSinceOwnServer = browserNow === null ? 0 : Math.max(0, Math.round((browserNow - props.updatedAt) / 1000));
  const msSinceAnswer =
    browserNow === null || !freshness?.lastAnswerAt ? 0 : Math.max(0, browserNow + freshness.clockOffsetMs - Date.parse(freshness.lastAnswerAt));
  // Not right after opening: a token nobody watched was last asked about up to a minute ago, and
  // opening the page asks for a poll at once.
  const isOpenLongEnough = freshness !== undefined && browserNow !== null && browserNow - openedAt > freshness.staleAfterMs;
  const isStale =
    freshness !== undefined && !isStopped && !serviceProblem && !isConnectionLost && isOpenLongEnough && msSinceAnswer > freshness.staleAfterMs;

  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="connection-status" data-freshness={freshnessOf(props, isStale)}>
      {isConnectionLost ? (
        <p role="alert" className="flex items-center gap-2 rounded-control border-l-4 border-warning-600 bg-warning-50 px-3 py-2 font-semibold text-warning-700">
          <CloudOff aria-hidden className="size-4 shrink-0" />
          Connection to Veridesk lost — showing what was known {describeAgo(secondsSinceOwnServer)}. Retrying…
        </p>
      ) : null}
      {serviceProblem && !isStopped ? (
        <p role="status" className="flex items-center gap-2 rounded-control border-l-4 border-warning-600 bg-warning-50 px-3 py-2 text-warning-700" data-testid="service-problem">
          <ServerCrash aria-hidden className="size-4 shrink-0" />
          <span>
            <strong>No news from the verification service since {formatTime(serviceProblem.since, { seconds: true })}.</strong> {serviceProblem.message}{" "}
            This is not a failed verification; Veridesk keeps checking and the result will show here.
          </span>
        </p>
      ) : null}
      {isStale ? (
        <p role="status" className="flex items-center gap-2 rounded-control border-l-4 border-warning-600 bg-warning-50 px-3 py-2 text-warning-700" data-testid="stale-warning">
          <Hourglass aria-hidden className="size-4 shrink-0" />
          <span>
            <strong>Not checked with the verification service for {describeDuration(msSinceAnswer)}.</strong> Veridesk is busy or
            catching up; this is not a failed verification, and the result will show here when it comes.
          </span>
        </p>
      ) : null}
      {!isConnectionLost && !serviceProblem && !isStale ? (
        <p className="flex items-center gap-1.5 text-ink-muted" data-testid="freshness">
          <RefreshCw aria-hidden className="size-3.5" />
          {isStopped
            ? "Final — no more updates needed."
            : freshness
              ? `Live · the service answered ${describeAgo(Math.round(msSinceAnswer / 1000))}`
              : `List updated ${describeAgo(secondsSinceOwnServer)}`}
        </p>
      ) : null}
    </div>
  );
}

function freshnessOf(props: ConnectionStatusProps, isStale: boolean): string {
  if (props.isStopped) return "final";
  if (props.isConnectionLost) return "connection-lost";
  if (props.serviceProblem) return "service-problem";
  return isStale ? "stale" : "live";
}

/** Browser time, ticking every second; null until mounted, so server and first client render agree. */
function useBrowserNow(): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setNow(Date.now());
    update();
    const timer = setInterval(update, 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function describeAgo(seconds: number): string {
  if (seconds < 3) return "just now";
  if (seconds < 90) return `${seconds} s ago`;
  return `${Math.round(seconds / 60)} min ago`;
}

function describeDuration(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000);
  return seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}
