import { AlertTriangle, CheckCircle2, Loader2, XCircle } from "lucide-react";
import type { TokenOutcomeView } from "@/lib/tokens/token-views";
import { issueOutcomeLabels } from "@/lib/tokens/display";
import { cn } from "@/components/ui/cn";

const looks = {
  issued: { icon: CheckCircle2, className: "bg-success-50 text-success-700 border-success-600" },
  pending: { icon: Loader2, className: "bg-info-50 text-info-700 border-info-600" },
  outcome_unknown: { icon: AlertTriangle, className: "bg-warning-50 text-warning-700 border-warning-600" },
  rejected: { icon: XCircle, className: "bg-danger-50 text-danger-700 border-danger-600" },
  failed_upstream: { icon: XCircle, className: "bg-danger-50 text-danger-700 border-danger-600" },
} as const;

/** How issuing ended, as icon, word and colour together. */
export function OutcomeBadge({ outcome }: { outcome: TokenOutcomeView }) {
  const { icon: Icon, className } = looks[outcome];
  return (
    <span className={cn("inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border px-2.5 py-0.5 text-sm font-semibold", className)} data-outcome={outcome}>
      <Icon aria-hidden className="size-4" />
      {issueOutcomeLabels[outcome]}
    </span>
  );
}
