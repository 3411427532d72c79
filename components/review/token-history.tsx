import { cn } from "@/components/ui/cn";
import { describeTokenEvent, type HistoryContext, type Sentence } from "@/lib/review/sentences";
import { formatDateTime } from "@/lib/bank-time";
import type { ReviewAccessEvent, ReviewTokenEvent } from "@/lib/review/token-detail";

type Tone = Sentence["tone"];
const dot: Record<Tone, string> = { neutral: "bg-line-strong", info: "bg-info-600", success: "bg-success-600", danger: "bg-danger-600", warning: "bg-warning-600" };

/** Everything that happened to the token, oldest first, with the bank's clock time, in sentences. */
export function TokenHistory({ events, context }: { events: ReviewTokenEvent[]; context: HistoryContext }) {
  if (events.length === 0) return <p className="text-ink-muted">No history was recorded for this token.</p>;
  return (
    <ol className="flex flex-col" data-testid="review-history">
      {events.map((event, index) => {
        const { text: label, detail, tone } = describeTokenEvent(event, context);
        return (
          <li key={`${event.at}-${index}`} className="relative flex gap-3 pb-4 last:pb-0">
            {index < events.length - 1 ? <span aria-hidden className="absolute top-4 left-[5px] h-full w-0.5 bg-line" /> : null}
            <span aria-hidden className={cn("relative mt-1.5 size-3 shrink-0 rounded-full", dot[tone])} />
            <div>
              <p className="font-medium">
                <time dateTime={event.at} className="mr-2 font-mono text-sm text-ink-muted tabular-nums">
                  {formatDateTime(event.at, { seconds: true })}
                </time>
                {label}
              </p>
              {detail ? <p className="text-sm text-ink-muted">{detail}</p> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** Who opened the token and who revealed its ID number, newest first. */
export function TokenAccessLog({ access }: { access: ReviewAccessEvent[] }) {
  if (access.length === 0) return <p className="text-ink-muted">Nobody has opened this token in review before you.</p>;
  return (
    <ul className="divide-y divide-line" data-testid="review-access-log">
      {access.map((event, index) => (
        <li key={`${event.at}-${index}`} className="py-2">
          <p>
            <time dateTime={event.at} className="mr-2 font-mono text-sm text-ink-muted tabular-nums">
              {formatDateTime(event.at, { seconds: true })}
            </time>
            <span className="font-semibold">{event.who}</span> {event.label}
          </p>
          {event.reason ? <p className="text-sm text-ink-muted">Reason: “{event.reason}”</p> : null}
        </li>
      ))}
    </ul>
  );
}
