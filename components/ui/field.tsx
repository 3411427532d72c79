import type { ReactNode } from "react";

type FieldProps = {
  /** The id of the control inside; the label, hint and error are tied to it. */
  controlId: string;
  label: string;
  hint?: string;
  error?: string;
  isOptional?: boolean;
  /** Receives the ids the control must list in `aria-describedby`. */
  children: (describedBy: string | undefined) => ReactNode;
};

/** A labelled control with its hint and an `aria-live` error, wired for screen readers. */
export function Field({ controlId, label, hint, error, isOptional = false, children }: FieldProps) {
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = `${controlId}-error`;
  const describedBy = [hintId, error ? errorId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      {/* A plain label: Radix's only kept a double click from selecting its text, and brought its Slot to every form page (ADR 0057). */}
      <label htmlFor={controlId} className="font-semibold text-ink">
        {label}
        {isOptional ? <span className="ml-1 font-normal text-ink-subtle">(optional)</span> : null}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
      {children(describedBy)}
      <p id={errorId} aria-live="polite" className="min-h-5 text-sm font-medium text-danger-700">
        {error}
      </p>
    </div>
  );
}
