import type { Metadata } from "next";
import Link from "next/link";
import { LiveQueryProvider } from "@/components/token-live/live-query-provider";
import { LiveTokenList } from "@/components/token-live/live-token-list";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { requirePermission } from "@/lib/auth/pages";
import { getDb } from "@/lib/db/client";
import { stateFilters, type StateFilter } from "@/lib/live/token-list-view";
import { liveViewSettings } from "@/lib/live/settings";
import { listTodayTokens } from "@/lib/live/today-list";

export const metadata: Metadata = { title: "Tokens" };
export const dynamic = "force-dynamic";

/**
 * Today's tokens of the branch, live, with a search and state filters: where a teller finds the
 * customer who calls back, and checks an unknown outcome before trying again. The same list and
 * poll as the home page's (components/token-live).
 */
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function TokensPage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requirePermission("tokens.view");
  const { state } = await searchParams;
  const initialFilter = (stateFilters as readonly unknown[]).includes(state) ? (state as StateFilter) : "all";
  const scope = branchScopeFor(staff);
  const initial = await listTodayTokens(await getDb(), { userId: staff.userId, scope }, liveViewSettings());
  const canIssue = staff.permissions.includes("tokens.issue");
  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Today's tokens"
        description={`Tokens issued today${scope.kind === "all" ? " in all branches" : ` at ${staff.branch.name}`}, live.`}
        action={
          canIssue ? (
            <Button asChild>
              <Link href="/tokens/new">New token</Link>
            </Button>
          ) : null
        }
      />
      <LiveQueryProvider>
        {/* Keyed by the filter: a link to another filter from this very page starts afresh. */}
        <LiveTokenList key={initialFilter} initial={initial} initialFilter={initialFilter} />
      </LiveQueryProvider>
    </div>
  );
}
