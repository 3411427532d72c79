import { Ban, CheckCircle2, CircleHelp, Clock, Loader2, TimerOff, XCircle, type LucideIcon } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { tokenStateLabelFor, type TokenStateName } from "@/lib/tokens/state";
import type { TokenKind } from "@/lib/domain/token-kinds";

const looks: Record<TokenStateName, { icon: LucideIcon; className: string; spin?: boolean }> = {
  waiting: { icon: Clock, className: "border-info-600 bg-info-50 text-info-700" },
  in_progress: { icon: Loader2, className: "border-brand-600 bg-brand-50 text-brand-800", spin: true },
  successful: { icon: CheckCircle2, className: "border-success-600 bg-success-50 text-success-700" },
  failed: { icon: XCircle, className: "border-danger-600 bg-danger-50 text-danger-700" },
  expired: { icon: TimerOff, className: "border-line-strong bg-surface-sunken text-ink-muted" },
  invalid: { icon: Ban, className: "border-danger-600 bg-surface text-danger-700" },
  outcome_unknown: { icon: CircleHelp, className: "border-warning-600 bg-warning-50 text-warning-700" },
};

/** A state always shown as icon + word + colour, never colour alone. */
export function StateBadge({
  state,
  kind,
  size = "md",
  className,
}: {
  state: TokenStateName;
  /** A fingerprint token waits for a customer already at the counter: its words say so. */
  kind?: TokenKind;
  size?: "md" | "lg";
  className?: string;
}) {
  const { icon: Icon, className: look, spin } = looks[state];
  return (
    <span
      className={cn(
        "inline-flex max-w-full items-center gap-2 rounded-full border-2 font-semibold",
        state === "waiting" && kind === "fingerprint" ? "whitespace-normal" : "whitespace-nowrap",
        size === "lg" ? "px-4 py-1.5 text-xl" : "px-2.5 py-0.5 text-sm",
        look,
        className,
      )}
      data-state={state}
      data-testid="state-badge"
    >
      <Icon aria-hidden className={cn(size === "lg" ? "size-6" : "size-4", spin && "animate-spin motion-reduce:animate-none")} />
      {tokenStateLabelFor(state, kind)}
    </span>
  );
}
