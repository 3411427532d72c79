import { CircleSlash } from "lucide-react";
import { StateBadge } from "@/components/token-live/state-badge";
import type { ReviewState } from "@/lib/review/filters";

/**
 * The live engineer's state badge for token states; the same look for an attempt the service
 * never issued (icon + word + colour, never colour alone).
 */
export function ReviewStateBadge({ state }: { state: ReviewState }) {
  if (state !== "not_issued") return <StateBadge state={state} />;
  return (
    <span
      className="inline-flex items-center gap-2 rounded-full border-2 border-line-strong bg-surface px-2.5 py-0.5 text-sm font-semibold whitespace-nowrap text-ink-muted"
      data-state="not_issued"
      data-testid="state-badge"
    >
      <CircleSlash aria-hidden className="size-4" />
      Not issued
    </span>
  );
}
