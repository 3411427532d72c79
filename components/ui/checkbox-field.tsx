import type { InputHTMLAttributes } from "react";
import { cn } from "./cn";

type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & {
  id: string;
  label: string;
  /** One line saying what ticking it does. */
  description?: string;
  error?: string;
};

/** A checkbox with its label and a one-line explanation, the whole row clickable. */
export function CheckboxField({ id, label, description, error, className, ...props }: CheckboxFieldProps) {
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = `${id}-error`;
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <label htmlFor={id} className="flex cursor-pointer items-start gap-3 rounded-control p-2 hover:bg-surface-sunken has-[:disabled]:cursor-not-allowed">
        <input
          id={id}
          type="checkbox"
          className="mt-1 size-5 shrink-0 accent-brand-700"
          aria-describedby={[descriptionId, error ? errorId : undefined].filter(Boolean).join(" ") || undefined}
          aria-invalid={error ? true : undefined}
          {...props}
        />
        <span className="flex flex-col">
          <span className="font-semibold text-ink">{label}</span>
          {description ? (
            <span id={descriptionId} className="text-sm text-ink-muted">
              {description}
            </span>
          ) : null}
        </span>
      </label>
      {/* The line is kept even when empty: an error appearing on blur must not push the box the
          pointer is pressing down the page (the click would land on nothing). */}
      <p id={errorId} aria-live="polite" className="ml-10 min-h-5 text-sm font-medium text-danger-700">
        {error}
      </p>
    </div>
  );
}
