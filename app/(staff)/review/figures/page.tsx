import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FigureSummary } from "@/components/review/figure-summary";
import { FiguresChart } from "@/components/review/figures-chart";
import { FiguresTable } from "@/components/review/figures-table";
import { FiguresRangeForm } from "@/components/review/range-form";
import { ReviewTabs } from "@/components/review/review-tabs";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { requirePermission } from "@/lib/auth/pages";
import { getDb } from "@/lib/db/client";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { computeFigures, type FigureGroup } from "@/lib/review/figures";
import { parseFiguresQuery } from "@/lib/review/filters";
import { formatDayRange } from "@/lib/bank-time";
import { formatRate } from "@/lib/review/format";
import { listBranchOptions } from "@/lib/review/options";
import { bankDayOf } from "@/lib/bank-time";

export const metadata: Metadata = { title: "Figures" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const groupLabels = { branch: "Branch", teller: "Teller", day: "Day" } as const;

/** Highest success rate first; groups with nothing finished yet last, by name. */
function sortBySuccessRate(groups: FigureGroup[]): FigureGroup[] {
  return [...groups].sort((a, b) => (b.successRate ?? -1) - (a.successRate ?? -1) || a.label.localeCompare(b.label));
}

/** Issued, outcomes, success rate and time to result per branch, teller or day, for a range. */
export default async function FiguresPage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requirePermission(REVIEW_PERMISSION);
  const scope = branchScopeFor(staff);
  // A branch supervisor has one branch: one bar per teller says more than one bar per branch.
  const query = parseFiguresQuery(await searchParams, bankDayOf(new Date()), scope.kind === "branch" ? "teller" : "branch");
  const db = await getDb();
  const [report, branches] = await Promise.all([computeFigures(db, scope, query), scope.kind === "all" ? listBranchOptions(db) : Promise.resolve(undefined)]);
  // A branch that does not exist (a stale or hand-made link) is "not found", not "no tokens".
  if (query.branch && branches && !branches.some((branch) => branch.id === query.branch)) notFound();
  const where = scope.kind === "all" ? (query.branch ? branches?.find((branch) => branch.id === query.branch)?.label ?? "one branch" : "all branches") : staff.branch.name;
  const range = formatDayRange(query.from, query.to);
  const groups = query.sort === "successRate" ? sortBySuccessRate(report.groups) : report.groups;
  const best = [...report.groups].filter((group) => group.successRate !== null).sort((a, b) => (b.successRate ?? 0) - (a.successRate ?? 0))[0];

  return (
    <>
      <PageHeader title="Figures" description={`${where} · ${range}`} />
      <ReviewTabs current="/review/figures" />
      <FiguresRangeForm from={query.from} to={query.to} groupBy={query.groupBy} sort={query.sort ?? "name"} branch={query.branch} branches={branches} />
      {report.total.requests === 0 ? (
        <EmptyState title="No tokens in this range">Choose a wider range, or another branch. Figures count tokens by the day they were created.</EmptyState>
      ) : (
        <>
          <FigureSummary total={report.total} />
          <section aria-labelledby="chart-heading" className="mb-6">
            <h2 id="chart-heading" className="mb-2 text-lg font-bold">
              Outcomes per {groupLabels[query.groupBy].toLowerCase()}
            </h2>
            <FiguresChart
              groups={groups}
              grouping={query.groupBy}
              describedBy="figures-table"
              summary={`Outcomes per ${groupLabels[query.groupBy].toLowerCase()}: ${report.groups.length} bars. Overall success rate ${formatRate(report.total.successRate)}${best ? `; highest ${best.label} at ${formatRate(best.successRate)}` : ""}. The table below has every number.`}
            />
          </section>
          <FiguresTable
            id="figures-table"
            caption={`Figures per ${groupLabels[query.groupBy].toLowerCase()}, ${range}. Success rate counts tokens that finished; times run from issue to result.`}
            groupLabel={groupLabels[query.groupBy]}
            groups={groups}
            total={report.total}
          />
        </>
      )}
    </>
  );
}
