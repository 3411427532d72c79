import { AlertTriangle, CheckCircle2, Info, XCircle } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "./cn";

const tones = {
  info: { icon: Info, className: "border-info-600 bg-info-50 text-info-700" },
  success: { icon: CheckCircle2, className: "border-success-600 bg-success-50 text-success-700" },
  warning: { icon: AlertTriangle, className: "border-warning-600 bg-warning-50 text-warning-700" },
  danger: { icon: XCircle, className: "border-danger-600 bg-danger-50 text-danger-700" },
} as const;

type AlertProps = { tone: keyof typeof tones; title: string; children?: ReactNode; className?: string };

/** A message with an icon, a title and a colour together, so meaning never rests on colour alone. */
export function Alert({ tone, title, children, className }: AlertProps) {
  const { icon: Icon, className: toneClass } = tones[tone];
  return (
    <div role={tone === "danger" ? "alert" : "status"} className={cn("flex gap-3 rounded-control border-l-4 p-4", toneClass, className)}>
      <Icon aria-hidden className="mt-0.5 size-5 shrink-0" />
      <div className="flex flex-col gap-1">
        <p className="font-semibold">{title}</p>
        {children ? <div className="text-ink">{children}</div> : null}
      </div>
    </div>
  );
}
