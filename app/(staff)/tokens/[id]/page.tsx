import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { TokenDetails } from "@/components/tokens/token-details";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { isAppError } from "@/lib/errors";
import { getTokenRequestView } from "@/lib/tokens";
import { tokenKindLabels } from "@/lib/tokens/display";

export const metadata: Metadata = { title: "Token" };
// Customer data: rendered per request, never cached (Cache-Control: no-store).
export const dynamic = "force-dynamic";

export default async function TokenPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requirePermission("tokens.view");
  const { id } = await params;
  const view = await getTokenRequestView(branchScopeFor(staff), id).catch((error: unknown) => {
    // Another branch's token is "not found" too: guessing ids tells nothing.
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  const canIssue = staff.permissions.includes("tokens.issue");
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader
        title={`${tokenKindLabels[view.kind]} token`}
        description={`${view.idTypeLabel} ${view.maskedIdNumber}`}
        action={
          canIssue ? (
            <Button asChild variant="secondary">
              <Link href={`/tokens/new/${view.kind}`}>New token</Link>
            </Button>
          ) : null
        }
      />
      <TokenDetails view={view} />
    </div>
  );
}
