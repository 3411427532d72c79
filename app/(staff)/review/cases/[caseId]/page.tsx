import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CaseActions } from "@/components/risk/case-actions";
import { CaseDetailView } from "@/components/risk/case-detail";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { hasPermission } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { closingNeedsSecondPerson, getCase, type CaseDetail } from "@/lib/risk/cases";
import { addCaseNoteAction, decideCaseAction, takeCaseAction } from "../actions";

export const metadata: Metadata = { title: "Risk case" };
export const dynamic = "force-dynamic";

/** One case routed to the viewer; any other id reads as not found (ADR 0046). */
export default async function RiskCasePage({ params }: { params: Promise<{ caseId: string }> }) {
  const staff = await requirePermission("risk.cases");
  const { caseId } = await params;
  let detail: CaseDetail;
  try {
    detail = await getCase(await getDb(), staff, caseId);
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const { riskCase } = detail;
  const isOpen = riskCase.state === "open" || riskCase.state === "in_review";
  const decisions: { value: "clear" | "escalate" | "report" | "not_report"; label: string }[] = [];
  const secondPerson = closingNeedsSecondPerson(riskCase);
  if (isOpen) {
    decisions.push({ value: "clear", label: secondPerson ? "Clear (a second person confirms)" : "Clear: no suspicion" });
    decisions.push({ value: "escalate", label: "Escalate to the AML reporting officer (suspicion formed now)" });
  }
  if (riskCase.state === "escalated" && hasPermission(staff.role, "branches.all")) {
    decisions.push({ value: "report", label: `Reported to the Financial Intelligence Centre${secondPerson ? " (a second person confirms)" : ""}` });
    decisions.push({ value: "not_report", label: `Not reported${secondPerson ? " (a second person confirms)" : ""}` });
  }
  const proposedWords = { cleared: "clearing it", reported: "closing it as reported", not_reported: "closing it as not reported" } as const;
  const proposed = riskCase.closeProposedState;
  const pendingClear =
    riskCase.closeProposedByUserId && proposed && proposed in proposedWords && (isOpen || riskCase.state === "escalated")
      ? `${detail.names[riskCase.closeProposedByUserId] ?? "Someone"} proposed ${proposedWords[proposed as keyof typeof proposedWords]}: “${riskCase.closeProposedReason ?? ""}”`
      : null;
  return (
    <>
      <PageHeader title={`Case: ${riskCase.subjectLabel}`} description="Alerts of the risk rules on one subject. Never discuss it with the subject or at the counter." action={<Link href="/review/cases" className="font-semibold text-brand-800 underline">All cases</Link>} />
      <div className="grid gap-8 lg:grid-cols-[2fr_1fr]">
        <CaseDetailView detail={detail} />
        <aside aria-label="Work on the case">
          <CaseActions
            caseId={riskCase.id}
            decisions={decisions}
            canTake={isOpen && riskCase.assigneeUserId !== staff.userId}
            pendingClear={pendingClear}
            addNote={addCaseNoteAction}
            take={takeCaseAction}
            decide={decideCaseAction}
          />
        </aside>
      </div>
    </>
  );
}
