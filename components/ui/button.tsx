import { cva, type VariantProps } from "class-variance-authority";
import { Loader2 } from "lucide-react";
import { Children, cloneElement, type ButtonHTMLAttributes, type ReactElement } from "react";
import { cn } from "./cn";

const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-control font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60",
  {
    variants: {
      variant: {
        primary: "bg-brand-700 text-ink-inverse hover:bg-brand-800",
        secondary: "border border-line-strong bg-surface text-ink hover:bg-surface-sunken",
        danger: "bg-danger-600 text-ink-inverse hover:bg-danger-700",
        ghost: "text-ink-muted hover:bg-surface-sunken hover:text-ink",
      },
      size: { md: "h-11 px-4 text-base", lg: "h-13 px-6 text-lg", sm: "h-9 px-3 text-sm pointer-coarse:h-11" },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> &
  VariantProps<typeof buttonVariants> & {
    /**
     * Render the child element (e.g. a link) with button styling: the button's classes go before
     * the child's own. Only the classes: a link keeps its own attributes and handlers. (What Radix's
     * Slot did here, without its kilobyte on every page, ADR 0057.)
     */
    asChild?: boolean;
    /** Shows a spinner and the busy state; the caller still decides whether to disable. */
    isBusy?: boolean;
  };

export function Button({ className, variant, size, asChild = false, isBusy = false, children, ...props }: ButtonProps) {
  if (asChild) {
    const child = Children.only(children) as ReactElement<{ className?: string }>;
    return cloneElement(child, { className: cn(buttonVariants({ variant, size }), className, child.props.className) });
  }
  return (
    <button className={cn(buttonVariants({ variant, size }), className)} aria-busy={isBusy || undefined} {...props}>
      {isBusy ? <Loader2 aria-hidden className="size-5 animate-spin motion-reduce:animate-none" /> : null}
      {children}
    </button>
  );
}
