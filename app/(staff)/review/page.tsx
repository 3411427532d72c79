import { Download } from "lucide-react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { FullIdExport } from "@/components/review/full-id-export";
import { IdNumberSearch } from "@/components/review/id-number-search";
import { ReviewFilters } from "@/components/review/review-filters";
import { ReviewTabs } from "@/components/review/review-tabs";
import { ReviewTokenTable } from "@/components/review/review-token-table";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { requirePermission } from "@/lib/auth/pages";
import { hasPermission } from "@/lib/auth/permissions";
import { listPurposes } from "@/lib/compliance/purposes";
import { getDb } from "@/lib/db/client";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { hasAnyFilter, parseListQuery, toSearchParams } from "@/lib/review/filters";
import { listBranchOptions, listTellerOptions } from "@/lib/review/options";
import { listReviewTokens } from "@/lib/review/token-list";
import { searchByIdNumberAction } from "./actions";

export const metadata: Metadata = { title: "Token review" };
// Customer data: rendered per request, never cached.
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Supervisors: every token of their branch (head office: all branches), filtered, sorted, paged. */
export default async function ReviewTokensPage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requirePermission(REVIEW_PERMISSION);
  const scope = branchScopeFor(staff);
  const { query, ignored } = parseListQuery(await searchParams);
  const db = await getDb();
  const [page, tellers, branches, purposes] = await Promise.all([
    listReviewTokens(db, scope, query),
    listTellerOptions(db, scope),
    scope.kind === "all" ? listBranchOptions(db) : Promise.resolve(undefined),
    listPurposes(db),
  ]);
  // A branch filter that names no branch (a stale or hand-made link) is "not found", not an empty list.
  if (query.branch && branches && !branches.some((branch) => branch.id === query.branch)) notFound();
  const filterQuery = toSearchParams({ ...query, page: 1, sort: undefined, dir: undefined, size: undefined }).toString();
  const isFiltered = hasAnyFilter(query);

  return (
    <>
      <PageHeader
        title="Token review"
        description={scope.kind === "all" ? "Every branch's tokens, newest first." : `Tokens of ${staff.branch.name}, newest first.`}
        action={
          <Button asChild variant="secondary">
            <Link href={`/api/review/export${filterQuery ? `?${filterQuery}` : ""}`} prefetch={false} download>
              <Download aria-hidden className="size-5" />
              Export CSV
            </Link>
          </Button>
        }
      />
      <ReviewTabs current="/review" />
      <div className="flex flex-col gap-4">
        <IdNumberSearch search={searchByIdNumberAction} detailBase="/review/tokens" />
        <ReviewFilters query={query} tellers={tellers} branches={branches} purposes={purposes.map((purpose) => purpose.name)} />
        {ignored.length > 0 ? (
          <Alert tone="warning" title="Part of this link could not be used">
            These filters were ignored: {ignored.join(", ")}. The list shows the rest.
          </Alert>
        ) : null}
        {page.rows.length === 0 ? (
          <EmptyState title={isFiltered ? "No token matches these filters" : "No tokens yet"}>
            {isFiltered ? (
              <>
                Widen the date range or remove a filter —{" "}
                <Link href="/review" className="font-semibold text-brand-700 underline">
                  clear all filters
                </Link>
                .
              </>
            ) : (
              "Tokens appear here as tellers issue them. For demo data, run npm run db:seed -- --demo."
            )}
          </EmptyState>
        ) : (
          <ReviewTokenTable
            rows={page.rows}
            query={query}
            total={page.total}
            isCountCapped={page.isCountCapped}
            pageCount={page.pageCount}
            showBranch={scope.kind === "all"}
            detailBase="/review/tokens"
            caption={isFiltered ? "Tokens matching the filters" : "All tokens, newest first"}
          />
        )}
        {hasPermission(staff.role, "tokens.export_full_ids") ? <FullIdExport filterQuery={filterQuery} /> : null}
      </div>
    </>
  );
}
