import Link from "next/link";
import { Fingerprint, Send } from "lucide-react";
import { cn } from "@/components/ui/cn";
import type { TokenKind } from "@/lib/domain/token-kinds";

const kinds = [
  { kind: "fingerprint", href: "/tokens/new/fingerprint", label: "Fingerprint", hint: "Customer is at the counter", icon: Fingerprint },
  { kind: "remote", href: "/tokens/new/remote", label: "Remote", hint: "Link sent to the customer's phone", icon: Send },
] as const;

/** Switches between the two token forms; the current one is marked for screen readers too. */
export function TokenKindTabs({ current }: { current: TokenKind }) {
  return (
    <nav aria-label="Kind of token" className="mb-6 grid grid-cols-2 gap-3">
      {kinds.map(({ kind, href, label, hint, icon: Icon }) => {
        const isCurrent = kind === current;
        return (
          <Link
            key={kind}
            href={href}
            aria-current={isCurrent ? "page" : undefined}
            className={cn(
              "flex items-center gap-3 rounded-card border p-4",
              isCurrent ? "border-brand-700 bg-brand-50 ring-1 ring-brand-700" : "border-line bg-surface hover:bg-surface-sunken",
            )}
          >
            <Icon aria-hidden className={cn("size-6 shrink-0", isCurrent ? "text-brand-700" : "text-ink-muted")} />
            <span className="flex flex-col">
              <span className="font-semibold text-ink">{label}</span>
              <span className="text-sm text-ink-muted">{hint}</span>
            </span>
          </Link>
        );
      })}
    </nav>
  );
}
