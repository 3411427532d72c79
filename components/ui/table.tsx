import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";

/**
 * Table primitives: real <table> markup (screen readers announce rows, columns and headers), in a
 * frame that scrolls sideways on narrow screens instead of squeezing the columns, with its first
 * column kept in place and a visible hint (table-frame.tsx).
 */
export { TableFrame } from "./table-frame";

export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  return <table className={cn("w-full border-collapse text-left", className)} {...props} />;
}

export function TableCaption({ className, ...props }: HTMLAttributes<HTMLTableCaptionElement>) {
  return <caption className={cn("px-4 py-3 text-left text-sm text-ink-muted", className)} {...props} />;
}

export function TableHead({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn("bg-surface-sunken text-sm text-ink-muted", className)} {...props} />;
}

export function TableBody({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn("divide-y divide-line", className)} {...props} />;
}

export function TableFoot({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tfoot className={cn("border-t-2 border-line-strong bg-surface-muted font-semibold", className)} {...props} />;
}

/** Cells sit in the middle of their row (the browser's default for a table body) unless the row says otherwise. */
export function TableRow(props: HTMLAttributes<HTMLTableRowElement>) {
  return <tr {...props} />;
}

export function TableHeaderCell({ className, scope = "col", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope={scope} className={cn("ui-header-cell font-semibold", className)} {...props} />;
}

export function TableCell({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("ui-cell", className)} {...props} />;
}

/** Numbers line up on the right, with digits of equal width. */
export function NumberCell({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("ui-cell text-right tabular-nums", className)} {...props} />;
}
