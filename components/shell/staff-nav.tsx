"use client";

import { Activity, BarChart3, Building2, ClipboardCheck, FilePlus2, Home, ListChecks, ScrollText, ShieldCheck, Users, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { activeNavHref, type NavIcon, type NavItem } from "./nav-items";

const icons: Record<NavIcon, LucideIcon> = {
  home: Home,
  staff: Users,
  branches: Building2,
  audit: ScrollText,
  "new-token": FilePlus2,
  tokens: ListChecks,
  review: BarChart3,
  purposes: ClipboardCheck,
  compliance: ShieldCheck,
  operations: Activity,
};

export function StaffNav({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const activeHref = activeNavHref(pathname, items);
  return (
    <nav aria-label="Main" className="flex items-center gap-1">
      {items.map((item) => {
        const Icon = icons[item.icon];
        const isActive = item.href === activeHref;
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={isActive ? "page" : undefined}
            className={cn(
              "inline-flex h-10 items-center gap-2 whitespace-nowrap rounded-control px-3 font-semibold text-ink-muted hover:bg-surface-sunken hover:text-ink",
              isActive && "bg-brand-50 text-brand-800 hover:bg-brand-100 hover:text-brand-900",
            )}
          >
            <Icon aria-hidden className="size-5" />
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
