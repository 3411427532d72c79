import Link from "next/link";
import type { TokenRequestSummary } from "@/lib/tokens/token-views";
import { formatTime, tokenKindLabels } from "@/lib/tokens/display";
import { EmptyState } from "@/components/ui/empty-state";
import { OutcomeBadge } from "./outcome-badge";

/** Today's token requests, newest first; an unknown outcome stands out so nobody retries blindly. */
export function TokenList({ tokens }: { tokens: TokenRequestSummary[] }) {
  if (tokens.length === 0) {
    return (
      <EmptyState title="No tokens issued today">
        Issue one with <Link href="/tokens/new" className="font-semibold text-info-700 underline">New token</Link>.
      </EmptyState>
    );
  }
  return (
    <div className="overflow-x-auto rounded-card border border-line bg-surface">
      <table className="w-full text-left">
        <thead className="border-b border-line bg-surface-sunken text-sm text-ink-muted">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">Time</th>
            <th scope="col" className="px-4 py-3 font-semibold">Kind</th>
            <th scope="col" className="px-4 py-3 font-semibold">ID</th>
            <th scope="col" className="px-4 py-3 font-semibold">Reference</th>
            <th scope="col" className="px-4 py-3 font-semibold">Issued by</th>
            <th scope="col" className="px-4 py-3 font-semibold">Outcome</th>
            <th scope="col" className="px-4 py-3 font-semibold">Token</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id} className="border-b border-line last:border-0" data-testid="token-row" data-outcome={token.outcome}>
              <td className="px-4 py-3">
                <Link href={`/tokens/${token.id}`} className="font-semibold text-info-700 underline underline-offset-2">
                  {formatTime(token.createdAt)}
                </Link>
              </td>
              <td className="px-4 py-3">{tokenKindLabels[token.kind]}</td>
              <td className="whitespace-nowrap px-4 py-3">
                <span className="block text-sm text-ink-muted">{token.idTypeLabel}</span>
                <span className="font-mono">{token.maskedIdNumber}</span>
              </td>
              <td className="break-all px-4 py-3">{token.referenceId}</td>
              <td className="px-4 py-3">{token.issuedByName}</td>
              <td className="whitespace-nowrap px-4 py-3">
                <OutcomeBadge outcome={token.outcome} />
              </td>
              <td className="px-4 py-3 font-mono">{token.token ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
