"use client";

import { KeyRound, Menu, X } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { activeNavHref, type NavItem } from "./nav-items";

/** An entry with its icon, drawn by the server (nav-icons.tsx). */
export type ShownNavItem = NavItem & { iconElement: ReactNode };

/** A count beside a menu entry, and what it counts (read after the number by screen readers). */
type NavBadge = { count: number; label: string };

const countBadgeClass = "inline-flex min-w-6 items-center justify-center rounded-full bg-warning-700 px-1.5 text-sm leading-6 font-bold text-ink-inverse";

/**
 * The main navigation. From 1024 px it is a row of its own under the header's top line (it wraps
 * rather than pushing the page sideways, however many entries a role has); below that it folds
 * behind a "Menu" button into a list with the signed-in person's name, so a tablet or phone at
 * the counter never scrolls sideways and every entry is a full-width target.
 */
export function StaffNav({ items, who, badges = {} }: { items: ShownNavItem[]; who: { name: string; detail: string }; badges?: Partial<Record<string, NavBadge>> }) {
  const pathname = usePathname();
  const activeHref = activeNavHref(pathname, items);
  const [isOpen, setIsOpen] = useState(false);
  const navId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const waiting = items.reduce((sum, item) => sum + (badges[item.href]?.count ?? 0), 0);

  // Escape folds an open menu wherever the focus is, and hands the focus back to its button.
  useEffect(() => {
    if (!isOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setIsOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [isOpen]);

  return (
    <>
      <button
        ref={menuButton}
        type="button"
        className="mb-3 inline-flex min-h-11 items-center gap-2 rounded-control border border-line-strong px-3 font-semibold text-ink hover:bg-surface-sunken lg:hidden"
        aria-expanded={isOpen}
        aria-controls={navId}
        onClick={() => setIsOpen((open) => !open)}
        data-testid="menu-button"
      >
        {isOpen ? <X aria-hidden className="size-5" /> : <Menu aria-hidden className="size-5" />}
        Menu
        {/* Folded, the menu still says something in it waits (the entry itself shows what). */}
        {waiting > 0 && !isOpen ? (
          <span className={countBadgeClass} data-testid="menu-badge">
            {waiting}
            <span className="sr-only"> waiting</span>
          </span>
        ) : null}
      </button>
      <nav
        id={navId}
        aria-label="Main"
        className={cn("order-last w-full flex-col gap-1 pb-3 lg:flex lg:flex-row lg:flex-wrap lg:pb-2", isOpen ? "flex" : "hidden")}
      >
        <div className="border-b border-line px-3 pb-3 leading-tight sm:hidden">
          <p className="font-semibold text-ink">{who.name}</p>
          <p className="text-sm text-ink-muted">{who.detail}</p>
          {/* On a phone the header hides this link beside the name: the menu carries it. */}
          <Link href="/account/security" prefetch={false} onClick={() => setIsOpen(false)} className="mt-1 inline-flex min-h-11 items-center gap-2 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline">
            <KeyRound aria-hidden className="size-4" />
            Sign-in security
          </Link>
        </div>
        {/* No prefetch (ADR 0040, amendment): by default every page view fetched every entry's route in two
            server requests (route tree, then metadata), about 18 on an admin's home, while staff use few entries
            a visit; with many tellers that is server load for nothing. In Next 16 `false` also means no prefetch
            on hover: a click fetches the page then, as a plain link would. */}
        {items.map((item) => {
          const isActive = item.href === activeHref;
          const badge = badges[item.href];
          return (
            <Link
              key={item.href}
              href={item.href}
              prefetch={false}
              aria-current={isActive ? "page" : undefined}
              onClick={() => setIsOpen(false)}
              className={cn(
                "inline-flex min-h-11 items-center gap-2 whitespace-nowrap rounded-control px-3 font-semibold lg:min-h-10 pointer-coarse:min-h-11",
                isActive ? "bg-brand-50 text-brand-800 hover:bg-brand-100 hover:text-brand-900" : "text-ink-muted hover:bg-surface-sunken hover:text-ink",
              )}
            >
              {item.iconElement}
              {item.label}
              {badge && badge.count > 0 ? (
                <span className={countBadgeClass} data-testid="nav-badge">
                  {badge.count}
                  <span className="sr-only"> {badge.label}</span>
                </span>
              ) : null}
            </Link>
          );
        })}
      </nav>
    </>
  );
}
