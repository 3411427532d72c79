import type { FigureCounts } from "@/lib/review/dto";
import { formatCount, formatDuration, formatRate } from "@/lib/review/format";

/** The headline numbers of a range, large enough to read across the desk. */
export function FigureSummary({ total }: { total: FigureCounts }) {
  const items: [string, string, string?][] = [
    ["Issued", formatCount(total.issued)],
    ["Successful", formatCount(total.successful)],
    ["Success rate", formatRate(total.successRate), "of tokens that finished"],
    ["Median time to result", formatDuration(total.medianSecondsToResult)],
    ["90th percentile", formatDuration(total.p90SecondsToResult)],
    ["Outcome unknown", formatCount(total.outcomeUnknown), "need follow-up"],
  ];
  return (
    <dl className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6" data-testid="figure-summary">
      {items.map(([label, value, hint]) => (
        <div key={label} className="rounded-card border border-line bg-surface p-4">
          <dt className="text-sm font-semibold text-ink-muted">{label}</dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums">{value}</dd>
          {hint ? <dd className="text-sm text-ink-muted">{hint}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
