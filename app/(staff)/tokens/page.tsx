import type { Metadata } from "next";
import Link from "next/link";
import { TokenList } from "@/components/tokens/token-list";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { requirePermission } from "@/lib/auth/pages";
import { listRecentTokenRequests } from "@/lib/tokens";

export const metadata: Metadata = { title: "Tokens" };
export const dynamic = "force-dynamic";

/** Today's tokens of the branch: where a teller checks an unknown outcome before trying again. */
export default async function TokensPage() {
  const staff = await requirePermission("tokens.view");
  const tokens = await listRecentTokenRequests(branchScopeFor(staff));
  const canIssue = staff.permissions.includes("tokens.issue");
  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Today's tokens"
        description={`Tokens issued today${branchScopeFor(staff).kind === "all" ? " in all branches" : ` at ${staff.branch.name}`}.`}
        action={
          canIssue ? (
            <Button asChild>
              <Link href="/tokens/new">New token</Link>
            </Button>
          ) : null
        }
      />
      <TokenList tokens={tokens} />
    </div>
  );
}
