import type { Metadata } from "next";
import Link from "next/link";
import { CaseList } from "@/components/risk/case-list";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { getDb } from "@/lib/db/client";
import { listCases } from "@/lib/risk/cases";
import { canManageRules } from "@/lib/risk/rule-versions";

export const metadata: Metadata = { title: "Risk cases" };
export const dynamic = "force-dynamic";

/** The risk cases routed to the viewer (ADR 0046): tellers are refused the page itself. */
export default async function RiskCasesPage() {
  const staff = await requirePermission("risk.cases");
  const db = await getDb();
  const [open, closed] = await Promise.all([listCases(db, staff, { open: true }), listCases(db, staff, { open: false })]);
  return (
    <>
      <PageHeader
        title="Risk cases"
        description="What the risk rules found in tokens and in staff's use of ID numbers, grouped by customer, phone or staff member. Never discuss a case with its subject or at the counter."
        action={
          canManageRules(staff.role) ? (
            <Button asChild variant="secondary">
              <Link href="/review/rules">Risk rules</Link>
            </Button>
          ) : undefined
        }
      />
      <section aria-labelledby="open-cases" className="mb-8">
        <h2 id="open-cases" className="mb-3 text-xl font-semibold">
          Open ({open.length})
        </h2>
        <CaseList cases={open} />
      </section>
      <section aria-labelledby="closed-cases">
        <h2 id="closed-cases" className="mb-3 text-xl font-semibold">
          Decided
        </h2>
        <CaseList cases={closed} />
      </section>
    </>
  );
}
