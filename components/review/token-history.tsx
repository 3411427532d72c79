import { cn } from "@/components/ui/cn";
import { reviewStateLabels, type ReviewState } from "@/lib/review/filters";
import { formatBankDateTime } from "@/lib/review/format";
import type { ReviewAccessEvent, ReviewTokenEvent } from "@/lib/review/token-detail";

const issueLabels: Record<string, { label: string; tone: Tone }> = {
  "issue.requested": { label: "Teller asked the service for a token", tone: "neutral" },
  "issue.issued": { label: "Token issued", tone: "info" },
  "issue.rejected": { label: "The service refused the request", tone: "danger" },
  "issue.failed": { label: "The service could not issue a token", tone: "danger" },
  "issue.outcome_unknown": { label: "The service did not answer: outcome unknown", tone: "warning" },
  service_unreachable: { label: "The verification service stopped answering", tone: "warning" },
  service_recovered: { label: "The verification service answers again", tone: "neutral" },
};

type Tone = "neutral" | "info" | "success" | "danger" | "warning";
const stateTone: Record<string, Tone> = { successful: "success", failed: "danger", invalid: "danger", outcome_unknown: "warning", in_progress: "info", expired: "neutral", waiting: "info" };
const dot: Record<Tone, string> = { neutral: "bg-line-strong", info: "bg-info-600", success: "bg-success-600", danger: "bg-danger-600", warning: "bg-warning-600" };

function describe(event: ReviewTokenEvent): { label: string; detail?: string; tone: Tone } {
  if (event.type === "state_changed") {
    const to = String(event.details.to ?? "");
    const detail = [event.details.transactionNumber ? `Transaction ${String(event.details.transactionNumber)}` : null, event.details.error ? String(event.details.error) : null]
      .filter(Boolean)
      .join(" · ");
    return { label: reviewStateLabels[to as ReviewState] ?? to, detail: detail || undefined, tone: stateTone[to] ?? "neutral" };
  }
  const known = issueLabels[event.type];
  const code = typeof event.details.code === "string" ? event.details.code : undefined;
  return known ? { ...known, detail: code } : { label: event.type, tone: "neutral" };
}

/** Everything that happened to the token, oldest first, with the bank's clock time. */
export function TokenHistory({ events }: { events: ReviewTokenEvent[] }) {
  if (events.length === 0) return <p className="text-ink-muted">No history was recorded for this token.</p>;
  return (
    <ol className="flex flex-col" data-testid="review-history">
      {events.map((event, index) => {
        const { label, detail, tone } = describe(event);
        return (
          <li key={`${event.at}-${index}`} className="relative flex gap-3 pb-4 last:pb-0">
            {index < events.length - 1 ? <span aria-hidden className="absolute top-4 left-[5px] h-full w-0.5 bg-line" /> : null}
            <span aria-hidden className={cn("relative mt-1.5 size-3 shrink-0 rounded-full", dot[tone])} />
            <div>
              <p className="font-medium">
                <time dateTime={event.at} className="mr-2 font-mono text-sm text-ink-muted tabular-nums">
                  {formatBankDateTime(event.at)}
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
              {formatBankDateTime(event.at)}
            </time>
            <span className="font-semibold">{event.who}</span> — {event.label}
          </p>
          {event.reason ? <p className="text-sm text-ink-muted">Reason: “{event.reason}”</p> : null}
        </li>
      ))}
    </ul>
  );
}
