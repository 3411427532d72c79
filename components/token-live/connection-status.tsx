"use client";

import { CloudOff, RefreshCw, ServerCrash } from "lucide-react";
import { useEffect, useState } from "react";
import { formatTime } from "./format";

type ConnectionStatusProps = {
  /** Browser time (ms) of the last answer from Veridesk's server. */
  updatedAt: number;
  /** The last poll of Veridesk's own server failed (network down, server restarting). */
  isConnectionLost: boolean;
  /** Polling stopped because the state is final. */
  isStopped: boolean;
  /** Veridesk's server is fine but the verification service is not answering it. */
  serviceProblem: { message: string; since: string } | null;
};

/**
 * Says how fresh the screen is. Two different troubles are told apart: this browser cannot reach
 * Veridesk (the state shown may be stale), or Veridesk cannot reach the verification service (the
 * state is the last one known; it is not a failure of the verification).
 */
export function ConnectionStatus({ updatedAt, isConnectionLost, isStopped, serviceProblem }: ConnectionStatusProps) {
  const secondsAgo = useSecondsSince(updatedAt);
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="connection-status">
      {isConnectionLost ? (
        <p role="alert" className="flex items-center gap-2 rounded-control border-l-4 border-warning-600 bg-warning-50 px-3 py-2 font-semibold text-warning-700">
          <CloudOff aria-hidden className="size-4 shrink-0" />
          Connection lost — showing what was known {describeAgo(secondsAgo)}. Retrying…
        </p>
      ) : null}
      {serviceProblem ? (
        <p role="status" className="flex items-center gap-2 rounded-control border-l-4 border-warning-600 bg-warning-50 px-3 py-2 text-warning-700">
          <ServerCrash aria-hidden className="size-4 shrink-0" />
          <span>
            <strong>The verification service is not answering</strong> since {formatTime(serviceProblem.since)}.{" "}
            {serviceProblem.message} This is not a failed verification; Veridesk keeps checking.
          </span>
        </p>
      ) : null}
      {!isConnectionLost ? (
        <p className="flex items-center gap-1.5 text-ink-muted">
          <RefreshCw aria-hidden className="size-3.5" />
          {isStopped ? "Final — no more updates needed." : `Live · updated ${describeAgo(secondsAgo)}`}
        </p>
      ) : null}
    </div>
  );
}

function useSecondsSince(browserMs: number): number {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setNow(Date.now());
    update();
    const timer = setInterval(update, 1000);
    return () => clearInterval(timer);
  }, []);
  return now === null ? 0 : Math.max(0, Math.round((now - browserMs) / 1000));
}

function describeAgo(seconds: number): string {
  if (seconds < 3) return "just now";
  if (seconds < 90) return `${seconds} s ago`;
  return `${Math.round(seconds / 60)} min ago`;
}
