import { cn } from "@/components/ui/cn";
import type { LiveTokenEvent } from "@/lib/live/dto";
import { formatTime } from "@/lib/bank-time";

const dotTone: Record<LiveTokenEvent["tone"], string> = {
  neutral: "bg-line-strong",
  info: "bg-info-600",
  success: "bg-success-600",
  danger: "bg-danger-600",
  warning: "bg-warning-600",
};

/** The token's history, oldest first, each step with its time. */
export function TokenTimeline({ events }: { events: LiveTokenEvent[] }) {
  if (events.length === 0) return <p className="text-ink-muted">Nothing has happened yet.</p>;
  return (
    <ol className="flex flex-col" data-testid="token-timeline">
      {events.map((event, index) => (
        <li key={`${event.at}-${index}`} className="relative flex gap-3 pb-4 last:pb-0">
          {index < events.length - 1 ? <span aria-hidden className="absolute top-4 left-[5px] h-full w-0.5 bg-line" /> : null}
          <span aria-hidden className={cn("relative mt-1.5 size-3 shrink-0 rounded-full", dotTone[event.tone])} />
          <div className="min-w-0">
            <p className="font-medium text-ink">
              <time dateTime={event.at} className="mr-2 font-mono text-sm text-ink-muted tabular-nums">
                {formatTime(event.at, { seconds: true })}
              </time>
              {event.label}
            </p>
            {event.detail ? <p className="text-sm break-words text-ink-muted">{event.detail}</p> : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
