import type { ReactNode } from "react";

/** What an empty list shows: what is missing and what to do next. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-card border border-dashed border-line-strong bg-surface p-8 text-center">
      <p className="font-semibold text-ink">{title}</p>
      {children ? <div className="mt-2 text-ink-muted">{children}</div> : null}
    </div>
  );
}
