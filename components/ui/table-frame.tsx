"use client";

import { ArrowLeft, ArrowRight } from "lucide-react";
import { useEffect, useId, useRef, useState, type HTMLAttributes } from "react";
import { cn } from "./cn";

type Overflow = "none" | "start" | "middle" | "end";

/**
 * The card a table sits in. A table wider than the screen (a tablet, a phone) scrolls sideways
 * inside it instead of squeezing its columns or widening the page, and then:
 * - its first column stays in place (sticky), so each row still says whose it is;
 * - a line above it says, in words, that more columns are to the side and which way, and the
 *   edge that hides columns fades. Nothing is ever cut off without the screen saying so
 *   (e2e/support/layout-checks.ts fails on a cell outside its frame without this hint).
 */
export function TableFrame({ className, children, ...props }: HTMLAttributes<HTMLDivElement>) {
  const scroller = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>("none");
  const hintId = useId();

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => {
      const hidden = element.scrollWidth - element.clientWidth;
      // A pixel or two of rounding is not a column.
      if (hidden <= 2) return setOverflow("none");
      const left = Math.abs(element.scrollLeft);
      setOverflow(left <= 2 ? "start" : left >= hidden - 2 ? "end" : "middle");
    };
    measure();
    const resize = new ResizeObserver(measure);
    resize.observe(element);
    if (element.firstElementChild) resize.observe(element.firstElementChild);
    element.addEventListener("scroll", measure, { passive: true });
    return () => {
      resize.disconnect();
      element.removeEventListener("scroll", measure);
    };
  }, []);

  const isScrollable = overflow !== "none";
  return (
    <div className={cn("relative min-w-0 rounded-card border border-line bg-surface", className)} data-overflow={overflow}>
      {isScrollable ? (
        <p
          id={hintId}
          className="no-print flex items-center justify-end gap-1.5 border-b border-line px-3 py-1.5 text-sm font-semibold text-ink-muted"
          data-scroll-hint
        >
          {overflow === "end" ? (
            <>
              <ArrowLeft aria-hidden className="size-4" /> Scroll sideways for the first columns
            </>
          ) : (
            <>
              Scroll sideways for more columns <ArrowRight aria-hidden className="size-4" />
            </>
          )}
        </p>
      ) : null}
      {/*
        tabIndex: a keyboard user must reach the frame to scroll it. relative: an absolutely
        positioned descendant (a screen-reader-only label) stays inside the frame instead of
        widening the page.
      */}
      <div
        ref={scroller}
        tabIndex={0}
        aria-describedby={isScrollable ? hintId : undefined}
        data-table-scroller
        className={cn(
          "relative overflow-x-auto rounded-card print:overflow-visible",
          // Each cell inherits its row's background, so a sticky cell covers what scrolls under it
          // (a body row is the surface, and takes its hover colour too).
          "[&_tbody>tr]:bg-surface [&_tr]:bg-inherit [&_:is(th,td)]:bg-inherit",
          isScrollable && "[&_tr>:first-child]:sticky [&_tr>:first-child]:left-0 [&_tr>:first-child]:z-[1] [&_tr>:first-child]:shadow-[inset_-1px_0_0_var(--color-line)]",
          // The side that hides columns fades, as a second sign beside the words.
          overflow === "start" || overflow === "middle" ? "[mask-image:linear-gradient(to_left,transparent,black_2rem)]" : undefined,
        )}
        {...props}
      >
        {children}
      </div>
    </div>
  );
}
