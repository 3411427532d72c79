"use client";

import { X } from "lucide-react";
import { Dialog as RadixDialog } from "radix-ui";
import type { ReactNode } from "react";
import { cn } from "./cn";

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** The buttons, right-aligned; the primary one last. */
  footer?: ReactNode;
  /** Dialogs that need an answer (a session about to end) cannot be dismissed by Esc or a click outside. */
  isDismissible?: boolean;
  role?: "dialog" | "alertdialog";
  className?: string;
};

/** A modal dialog: focus trapped, title and description announced, Esc closes when dismissible. */
export function Dialog({ open, onOpenChange, title, description, children, footer, isDismissible = true, role = "dialog", className }: DialogProps) {
  const preventIfRequired = (event: Event) => {
    if (!isDismissible) event.preventDefault();
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <RadixDialog.Content
          role={role}
          onEscapeKeyDown={preventIfRequired}
          onPointerDownOutside={preventIfRequired}
          onInteractOutside={preventIfRequired}
          className={cn(
            "fixed top-1/2 left-1/2 z-50 flex max-h-[90vh] w-[min(34rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-y-auto rounded-card border border-line bg-surface p-6 shadow-xl",
            className,
          )}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="flex items-start justify-between gap-4">
            <RadixDialog.Title className="text-xl font-bold text-ink">{title}</RadixDialog.Title>
            {isDismissible ? (
              <RadixDialog.Close className="rounded-control p-1 text-ink-muted hover:bg-surface-sunken hover:text-ink" aria-label="Close">
                <X aria-hidden className="size-5" />
              </RadixDialog.Close>
            ) : null}
          </div>
          {description ? <RadixDialog.Description className="text-ink-muted">{description}</RadixDialog.Description> : null}
          {children}
          {footer ? <div className="mt-2 flex flex-wrap justify-end gap-3">{footer}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
