"use client";

import { Loader2 } from "lucide-react";
import { useEffect, useState } from "react";

/** After this long a teller is told why it takes so long, before they wonder whether to click again. */
const SLOW_AFTER_SECONDS = 5;

/**
 * Beside the Issue button while the service is asked for a token: the seconds going by, and once
 * it is slow, that Veridesk is still waiting (up to the issuing timeout) and never sends twice
 * (ADR 0017). Announced politely; it takes no room when idle.
 */
export function IssueProgress({ sendingSince, timeoutSeconds }: { sendingSince: number | null; timeoutSeconds: number }) {
  const seconds = useSecondsSince(sendingSince);
  if (sendingSince === null) return null;
  return (
    <p role="status" className="flex min-w-0 items-start gap-2 text-sm text-ink-muted" data-testid="issue-progress">
      <Loader2 aria-hidden className="mt-0.5 size-4 shrink-0 animate-spin motion-reduce:animate-none" />
      <span>
        Asking the verification service… <strong className="text-ink tabular-nums" data-testid="issue-elapsed">{seconds} s</strong>
        {seconds >= SLOW_AFTER_SECONDS ? (
          <>
            <br />
            The service is slow. Keep this page open: Veridesk waits up to {timeoutSeconds} s and never sends the request twice.
          </>
        ) : null}
      </span>
    </p>
  );
}

function useSecondsSince(since: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, Math.floor((now - since) / 1000));
}
