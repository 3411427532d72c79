import type { Metadata } from "next";
import { notFound } from "next/navigation";
import "@/components/review/print.css";
import { PrintSheetButton } from "@/components/review/print-sheet-button";
import { SignOffForm } from "@/components/review/sign-off-form";
import { ReconciliationSheet } from "@/components/review/reconciliation-sheet";
import { ReviewTabs } from "@/components/review/review-tabs";
import { DayField } from "@/components/review/day-field";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { requirePermission } from "@/lib/auth/pages";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { parseReconciliationQuery } from "@/lib/review/filters";
import { formatDay } from "@/lib/bank-time";
import { listBranchOptions } from "@/lib/review/options";
import { buildReconciliation } from "@/lib/review/reconciliation";
import { bankDayOf } from "@/lib/bank-time";
import { recordReconciliationPrintedAction, signOffReconciliationAction } from "./actions";

export const metadata: Metadata = { title: "End of day" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** One branch, one day: issued against finished, open and unknown, per teller; print to sign off. */
export default async function ReconciliationPage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requirePermission(REVIEW_PERMISSION);
  const scope = branchScopeFor(staff);
  const today = bankDayOf(new Date());
  const query = parseReconciliationQuery(await searchParams, today);
  // A branch supervisor reconciles their own branch; head office picks one (their own by default).
  const branchId = scope.kind === "branch" ? scope.branchId : (query.branch ?? staff.branch.id);
  const db = await getDb();
  const [sheet, branches] = await Promise.all([
    // A branch id that names no branch (a stale or hand-made link) is "not found", not a 500.
    buildReconciliation(db, scope, { day: query.day, branch: branchId }).catch((error: unknown) => {
      if (isAppError(error) && error.code === "NOT_FOUND") notFound();
      throw error;
    }),
    scope.kind === "all" ? listBranchOptions(db) : Promise.resolve(undefined),
  ]);

  return (
    <>
      <div className="no-print">
        <PageHeader
          title="End of day"
          description={`${sheet.branch.name} · ${formatDay(sheet.day, { weekday: true })}`}
          action={<PrintSheetButton branchId={sheet.branch.id} day={sheet.day} recordPrinted={recordReconciliationPrintedAction} />}
        />
        <ReviewTabs current="/review/reconciliation" />
        <form method="get" aria-label="Choose the branch and day" className="mb-6 flex flex-wrap items-end gap-4 rounded-card border border-line bg-surface p-4">
          <label className="flex flex-col gap-1 text-sm font-semibold">
            Day
            <DayField name="day" defaultValue={sheet.day} className="w-44" />
          </label>
          {branches ? (
            <label className="flex flex-col gap-1 text-sm font-semibold">
              Branch
              <Select name="branch" defaultValue={sheet.branch.id} className="w-64">
                {branches.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.label}
                  </option>
                ))}
              </Select>
            </label>
          ) : null}
          <Button type="submit" variant="secondary">
            Show
          </Button>
        </form>
      </div>
      <ReconciliationSheet
        sheet={sheet}
        preparedBy={staff.name}
        bankName={env().BANK_NAME}
        signOffForm={
          // A day still going (or to come), or before the branch's first token, is not signed off: the action refuses it too.
          sheet.signOffRefusal ? (
            <p className="no-print text-ink-muted" data-testid="sign-off-refusal">
              {sheet.signOffRefusal}
            </p>
          ) : (
            <SignOffForm branchId={sheet.branch.id} day={sheet.day} followUpCount={sheet.followUp.length} isSignedAlready={sheet.signOff !== null} signOff={signOffReconciliationAction} />
          )
        }
      />
    </>
  );
}
