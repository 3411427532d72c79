import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "./cn";

const tones = {
  neutral: "border-line-strong bg-surface-sunken text-ink",
  brand: "border-brand-600 bg-brand-50 text-brand-800",
  success: "border-success-600 bg-success-50 text-success-700",
  warning: "border-warning-600 bg-warning-50 text-warning-700",
  danger: "border-danger-600 bg-danger-50 text-danger-700",
  info: "border-info-600 bg-info-50 text-info-700",
} as const;

export type BadgeTone = keyof typeof tones;

/** A short state or label: icon, word and colour together, so it never rests on colour alone. */
export function Badge({
  tone = "neutral",
  icon: Icon,
  children,
  className,
  canWrap = false,
}: {
  tone?: BadgeTone;
  icon?: LucideIcon;
  children: ReactNode;
  className?: string;
  /** A long label (an audit event's) may take two lines rather than widen its column. */
  canWrap?: boolean;
}) {
  return (
    <span className={cn("inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-sm font-semibold", canWrap ? "max-w-full" : "whitespace-nowrap", tones[tone], className)}>
      {Icon ? <Icon aria-hidden className="size-4 shrink-0" /> : null}
      {children}
    </span>
  );
}
