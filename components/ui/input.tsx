import type { ComponentProps, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { cn } from "./cn";

// ui-field (width, text size) and ui-field-height: defaults a page may change with a utility (app/globals.css).
const controlClass =
  "ui-field rounded-control border border-line-strong bg-surface px-3 text-ink placeholder:text-ink-subtle aria-[invalid=true]:border-danger-600 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-danger-600 disabled:bg-surface-sunken";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(controlClass, "ui-field-height", className)} {...props} />;
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cn(controlClass, "ui-field-height", className)} {...props} />;
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(controlClass, "min-h-24 py-2", className)} {...props} />;
}
