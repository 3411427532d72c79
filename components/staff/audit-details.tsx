import { ArrowRight } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { describeAuditDetails, type AuditNames } from "@/lib/review/audit-details";

/**
 * An event's details in plain words (lib/review/audit-details.ts): before → after for a change,
 * the changed fields marked, then the rest. Long values (a hash, a filter) wrap anywhere rather
 * than widen the table.
 */
export function AuditDetails({ details, names }: { details: Record<string, unknown>; names: AuditNames }) {
  const lines = describeAuditDetails(details, names);
  if (lines.length === 0) return null;
  return (
    // The labels' column takes at most 40 %: sized to a long label it left the values none on a
    // phone, and they were written one letter under another past the card's edge.
    <dl className="grid grid-cols-[fit-content(40%)_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm" data-testid="audit-details">
      {lines.map((line) => (
        <div key={line.key} className="contents" data-detail={line.key} data-change={"value" in line ? undefined : line.key}>
          <dt className="text-ink-muted">{line.label}</dt>
          <dd className={cn("min-w-0 [overflow-wrap:anywhere] text-ink", line.isCode && "font-mono")}>
            {"value" in line ? (
              line.value
            ) : line.isChanged ? (
              <span className="inline-flex flex-wrap items-center gap-x-1.5 font-semibold">
                <span className="font-normal text-ink-muted line-through decoration-1">{line.before}</span>
                <ArrowRight aria-label="changed to" className="size-4 shrink-0 text-ink-subtle" />
                <span>{line.after}</span>
              </span>
            ) : (
              <span>
                {line.after} <span className="text-ink-subtle">(unchanged)</span>
              </span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
