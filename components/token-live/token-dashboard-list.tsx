"use client";

import { AlertTriangle, ChevronRight } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { pinOpenFirst } from "@/lib/live/token-list-view";
import type { LiveTokenSummary } from "@/lib/live/dto";
import { Countdown } from "./countdown";
import { formatTime } from "@/lib/bank-time";
import { StateBadge } from "./state-badge";

type TokenDashboardListProps = {
  tokens: LiveTokenSummary[];
  serverNow: string;
  clockOffsetMs: number;
  /** Shown when the list is empty: what to do next. */
  emptyAction?: React.ReactNode;
  emptyTitle?: string;
  /** The list already shows only the tokens of unknown outcome: the banner then needs no link to them. */
  isShowingUnknownOnly?: boolean;
};

/**
 * Today's tokens of the branch, the teller's own first, open ones on top. Every row ticks from the
 * same answer of one polling request; "outcome unknown" rows stand out, since issuing again may
 * send a second SMS. A whole row opens its token (the "Open" link is the keyboard's way in).
 */
export function TokenDashboardList({ tokens, serverNow, clockOffsetMs, emptyAction, emptyTitle, isShowingUnknownOnly = false }: TokenDashboardListProps) {
  if (tokens.length === 0) {
    return <EmptyState title={emptyTitle ?? "No tokens yet today"}>{emptyAction ?? "Tokens you and your branch issue today appear here."}</EmptyState>;
  }
  const mine = pinOpenFirst(tokens.filter((token) => token.isMine));
  const others = pinOpenFirst(tokens.filter((token) => !token.isMine));
  const unknown = tokens.filter((token) => token.state === "outcome_unknown");
  const unknownCount = unknown.length;
  return (
    <div className="flex flex-col gap-6">
      {unknownCount > 0 ? (
        <Alert tone="warning" title={unknownCount === 1 ? "1 token with an unknown outcome" : `${unknownCount} tokens with an unknown outcome`} data-testid="unknown-outcome-banner">
          <p>
            No answer of the service was recorded when they were requested, or it never sent a result. Ask the customer whether an SMS or a
            verification reached them before issuing another token.
          </p>
          {/* Straight to what needs checking: the one token, or the list showing only those. */}
          {unknownCount > 1 && isShowingUnknownOnly ? null : (
            <Link
              href={unknownCount === 1 ? `/tokens/${unknown[0]!.id}` : `/tokens?state=outcome_unknown`}
              prefetch={false}
              className="mt-2 inline-flex items-center gap-1 font-semibold underline underline-offset-2 pointer-coarse:min-h-11"
              data-testid="unknown-outcome-link"
            >
              {unknownCount === 1 ? "Open that token" : `Show the ${unknownCount} tokens`}
              <ChevronRight aria-hidden className="size-4" />
            </Link>
          )}
        </Alert>
      ) : null}
      <TokenGroup title="Your tokens today" tokens={mine} serverNow={serverNow} clockOffsetMs={clockOffsetMs} emptyText="You have issued no token today." />
      {others.length > 0 ? (
        <TokenGroup title="Others at your branch" tokens={others} serverNow={serverNow} clockOffsetMs={clockOffsetMs} />
      ) : null}
    </div>
  );
}

function TokenGroup({
  title,
  tokens,
  serverNow,
  clockOffsetMs,
  emptyText,
}: {
  title: string;
  tokens: LiveTokenSummary[];
  serverNow: string;
  clockOffsetMs: number;
  emptyText?: string;
}) {
  const headingId = `tokens-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-2 text-lg font-bold">
        {title} <span className="font-normal text-ink-muted">({tokens.length})</span>
      </h2>
      {tokens.length === 0 ? (
        <p className="text-ink-muted">{emptyText}</p>
      ) : (
        // Below 1024 px (a tablet at the counter, a phone) each row is a card: token and state on top, then the customer and the time left.
        <div className="overflow-hidden rounded-card border border-line bg-surface">
          <table className="w-full text-left max-lg:block">
            <thead className="bg-surface-sunken text-sm text-ink-muted max-lg:sr-only">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">Issued</th>
                <th scope="col" className="px-4 py-2 font-semibold">Token</th>
                <th scope="col" className="px-4 py-2 font-semibold">Customer</th>
                <th scope="col" className="px-4 py-2 font-semibold">State</th>
                <th scope="col" className="px-4 py-2 font-semibold">Time left / result</th>
                <th scope="col" className="px-4 py-2"><span className="sr-only">Open</span></th>
              </tr>
            </thead>
            <tbody className="max-lg:block">
              {tokens.map((token) => (
                <TokenRow key={token.id} token={token} serverNow={serverNow} clockOffsetMs={clockOffsetMs} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function TokenRow({ token, serverNow, clockOffsetMs }: { token: LiveTokenSummary; serverNow: string; clockOffsetMs: number }) {
  const router = useRouter();
  const isUnknown = token.state === "outcome_unknown";
  return (
    // On a card (below lg) the cells form a grid: token | state; customer; time left or result;
    // issued | Open. Three columns, so that the state's badge spans the middle one and Open's own
    // narrow one, and the issue time has the width left of Open rather than left of the badge. The
    // first is never narrower than the token code, which must not break or run under the badge.
    <tr
      onClick={(event) => {
        // A click on the row opens the token, unless it was on a link or a selection of text.
        if ((event.target as HTMLElement).closest("a, button") || window.getSelection()?.toString()) return;
        router.push(`/tokens/${token.id}`);
      }}
      className={cn(
        "cursor-pointer border-t border-line align-middle hover:bg-surface-sunken max-lg:grid max-lg:grid-cols-[minmax(min-content,1fr)_auto_auto] max-lg:items-start max-lg:gap-x-3 max-lg:gap-y-2 max-lg:p-4 max-lg:first:border-t-0 max-lg:[&>td]:p-0",
        isUnknown && "bg-warning-50",
      )}
      data-testid="dashboard-row"
      data-opens-on-tap
      data-token-id={token.id}
      data-state={token.state}
    >
      <td className="px-4 py-3 font-mono text-sm tabular-nums text-ink-muted max-lg:order-5 max-lg:col-span-2">
        <span className="lg:sr-only">Issued </span>
        {formatTime(token.issuedAt ?? token.createdAt, { seconds: true })}
      </td>
      <td className="px-4 py-3 max-lg:order-1">
        {/* A token code is read aloud and typed: it never breaks over lines. */}
        <span className="font-mono text-lg font-bold tracking-wider whitespace-nowrap" data-token-code={token.token ? "" : undefined}>
          {token.token ?? "—"}
        </span>
        <span className="block text-xs text-ink-muted">{token.kind === "fingerprint" ? "Fingerprint" : "Remote"}{token.isMine ? "" : ` · ${token.tellerName}`}</span>
      </td>
      {/* On a card the customer takes the card's whole width: beside the state's column (as wide as
          its widest badge) an ID type and a reference would wrap word by word on a phone. */}
      <td className="px-4 py-3 max-lg:order-3 max-lg:col-span-3">
        <span className="block">{token.idTypeLabel} <span className="font-mono whitespace-nowrap">{token.maskedIdNumber}</span></span>
        <span className="block text-sm text-ink-muted">Ref. {token.reference}</span>
      </td>
      {/* On a card the state sits at the right, as wide as its badge, with its note underneath. */}
      <td className="px-4 py-3 max-lg:order-2 max-lg:col-span-2 max-lg:justify-self-end max-lg:text-right">
        {/* On a phone a long state ("Verification in progress") wraps inside its badge rather than
            pushing the card wider than the screen beside a nine-character token code. */}
        <StateBadge state={token.state} className="max-lg:whitespace-normal" />
        {isUnknown ? (
          <span className="mt-1 flex items-center gap-1 text-xs font-semibold text-warning-700 max-lg:justify-end">
            <AlertTriangle aria-hidden className="size-3.5 shrink-0" /> Check before issuing again
          </span>
        ) : null}
        {token.serviceProblem ? <span className="mt-1 block text-xs text-warning-700">Service not answering</span> : null}
      </td>
      {/* On a card the time left or the result has a line of its own under the customer (a failure's
          reason, a sentence, from the left); with neither, the card leaves out the table's dash. */}
      <td
        className={cn(
          "px-4 py-3 max-lg:order-4 max-lg:col-span-3",
          token.result?.status === "FAILED" ? null : "max-lg:text-right",
          !(token.state === "waiting" && token.expiresAt) && !token.result && "max-lg:hidden",
        )}
      >
        {token.state === "waiting" && token.expiresAt ? (
          <Countdown expiresAt={token.expiresAt} serverNow={serverNow} offsetMs={clockOffsetMs} size="sm" />
        ) : token.result ? (
          token.result.status === "FAILED" ? (
            <span className="text-sm [overflow-wrap:anywhere]" data-testid="dashboard-failure-reason">
              {token.result.error ?? "Failed"}
            </span>
          ) : (
            <span className="font-mono text-sm break-all">{token.result.transactionNumber}</span>
          )
        ) : (
          <span className="text-ink-subtle">—</span>
        )}
      </td>
      <td className="px-4 py-3 text-right max-lg:order-6">
        <Link href={`/tokens/${token.id}`} prefetch={false} className="inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline">
          Open<span className="sr-only"> token {token.token ?? ""}</span>
          <ChevronRight aria-hidden className="size-4" />
        </Link>
      </td>
    </tr>
  );
}
