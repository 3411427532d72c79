"use client";

import { AlertTriangle, CheckCircle2, Info, XCircle } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { cn } from "./cn";

const tones = {
  info: { icon: Info, className: "border-info-600 bg-info-50 text-info-700" },
  success: { icon: CheckCircle2, className: "border-success-600 bg-success-50 text-success-700" },
  warning: { icon: AlertTriangle, className: "border-warning-600 bg-warning-50 text-warning-700" },
  danger: { icon: XCircle, className: "border-danger-600 bg-danger-50 text-danger-700" },
} as const;

type AlertProps = {
  tone: keyof typeof tones;
  title: string;
  children?: ReactNode;
  className?: string;
  /**
   * Feedback the staff member must act on (a form's error or warning): announced as an alert,
   * scrolled to the middle of the screen and focused when it appears and again each time this
   * value changes (pass the failure object: a repeated failure is a new object). The teller is at
   * the button they pressed, not at the top of the form.
   */
  attention?: unknown;
  /** The request id of the failed call (lib/support/support-code.ts), shown for quoting to support. */
  supportCode?: string;
  "data-testid"?: string;
};

/** A message with an icon, a title and a colour together, so meaning never rests on colour alone. */
export function Alert({ tone, title, children, className, attention, supportCode, "data-testid": testId }: AlertProps) {
  const { icon: Icon, className: toneClass } = tones[tone];
  const ref = useRef<HTMLDivElement>(null);
  const wantsAttention = attention !== undefined;
  useEffect(() => {
    const element = ref.current;
    if (!wantsAttention || !element) return;
    // Instant, not smooth: the focus and the screen reader's announcement land together, and a
    // scroll animation would be cut short by the focus anyway.
    element.scrollIntoView({ block: "center", inline: "nearest" });
    element.focus({ preventScroll: true });
  }, [attention, wantsAttention]);
  return (
    <div
      ref={ref}
      role={tone === "danger" || wantsAttention ? "alert" : "status"}
      tabIndex={wantsAttention ? -1 : undefined}
      data-testid={testId}
      className={cn(
        "flex gap-3 rounded-control border-l-4 p-4",
        wantsAttention && "scroll-my-24 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-700 focus:ring-2 focus:ring-brand-700/60",
        toneClass,
        className,
      )}
    >
      <Icon aria-hidden className="mt-0.5 size-5 shrink-0" />
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-semibold">{title}</p>
        {children ? <div className="text-ink">{children}</div> : null}
        {supportCode ? (
          <p className="text-sm text-ink-muted" data-testid="support-code">
            Reference for support: <span className="font-mono font-semibold tracking-wider text-ink">{supportCode}</span>
          </p>
        ) : null}
      </div>
    </div>
  );
}
