import Link from "next/link";
import { cn } from "@/components/ui/cn";

const tabs = [
  { href: "/review", label: "Tokens" },
  { href: "/review/figures", label: "Figures" },
  { href: "/review/reconciliation", label: "End of day" },
  // The same roles hold customers.records and the review (lib/auth/permissions.ts).
  { href: "/review/customer-records", label: "Customer records" },
] as const;

/** The review area's sections, in the same place on each of its pages. */
export function ReviewTabs({ current }: { current: (typeof tabs)[number]["href"] }) {
  return (
    <nav aria-label="Review sections" className="no-print mb-6 border-b border-line">
      <ul className="flex flex-wrap gap-1">
        {tabs.map((tab) => (
          <li key={tab.href}>
            <Link
              href={tab.href}
              aria-current={tab.href === current ? "page" : undefined}
              className={cn(
                "-mb-px inline-block border-b-4 px-4 py-2 font-semibold",
                tab.href === current ? "border-brand-700 text-brand-800" : "border-transparent text-ink-muted hover:text-ink",
              )}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
