import { ChevronLeft, ChevronRight, Download } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { AuditEvents } from "@/components/staff/audit-events";
import { DayField } from "@/components/review/day-field";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Select } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { listAuditActions } from "@/lib/review/audit-trail";
import { auditActionLabel } from "@/lib/audit/actions";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { requirePermission } from "@/lib/auth/pages";
import { hasPermission } from "@/lib/auth/permissions";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { getDb } from "@/lib/db/client";
import { parseAuditFilter } from "@/lib/review/audit-filter";
import { listAuditTrailPage } from "@/lib/review/audit-trail";
import { listStaff } from "@/lib/staff/accounts";
import { pageNumberSchema } from "@/lib/validation/query-values";
import { verifyAuditTrailAction } from "./actions";
import { VerifyTrail } from "./verify-trail";

export const metadata: Metadata = { title: "Audit trail" };

const PAGE_SIZE = 25;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const single = (value: string | string[] | undefined) => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * Read-only, newest first, filtered by staff member, event and days, and exportable as CSV (the
 * export is audited too). A branch supervisor sees their branch's events only.
 */
export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requirePermission("audit.read");
  // Token links in the sentences only for those who may open a token in review.
  const canOpenTokens = hasPermission(staff.role, REVIEW_PERMISSION);
  const scope = branchScopeFor(staff);
  const params = await searchParams;
  const filter = parseAuditFilter(params);
  const { staffUserId, action, from, to } = filter;
  // Bounded: an offset past bigint would be a database error, not an empty page.
  const page = pageNumberSchema.safeParse(single(params.page) ?? "1").data ?? 1;
  // The hash chain is checked on request, by whoever reads every branch (it reads the whole
  // trail); the check is itself recorded, head hash included (ADR 0019). Through its server action
  // (a POST): this GET writes nothing, so another site's link cannot make it write.
  const canVerify = scope.kind === "all";

  const [{ events, total, pageCount, names }, actions, allStaff] = await Promise.all([
    // The reader, not only their scope: a row about a risk case is routed like the case (ADR 0050).
    listAuditTrailPage(await getDb(), staff, filter, page, PAGE_SIZE),
    listAuditActions(await getDb(), staff),
    listStaff(await getDb()),
  ]);
  const staffOptions = scope.kind === "all" ? allStaff : allStaff.filter((member) => member.branch.id === scope.branchId);
  const filterQuery = new URLSearchParams();
  if (staffUserId) filterQuery.set("staff", staffUserId);
  if (action) filterQuery.set("action", action);
  if (from) filterQuery.set("from", from);
  if (to) filterQuery.set("to", to);
  const isFiltered = filterQuery.size > 0;
  const pageHref = (target: number) => {
    const query = new URLSearchParams(filterQuery);
    if (target > 1) query.set("page", String(target));
    const text = query.toString();
    return text ? `/admin/audit?${text}` : "/admin/audit";
  };

  return (
    <>
      <PageHeader
        title="Audit trail"
        description={scope.kind === "all" ? "Everything recorded, all branches, newest first." : `Events of ${staff.branch.name}, newest first.`}
        action={
          <Button asChild variant="secondary">
            <Link href={`/api/review/audit-export${isFiltered ? `?${filterQuery}` : ""}`} prefetch={false} download>
              <Download aria-hidden className="size-5" />
              Export CSV
            </Link>
          </Button>
        }
      />
      {canVerify ? <VerifyTrail verifyAction={verifyAuditTrailAction} /> : null}
      <form method="get" className="mb-6 flex flex-wrap items-end gap-4 rounded-card border border-line bg-surface p-4" aria-label="Filter the audit trail">
        <label className="flex min-w-64 flex-col gap-1.5">
          <span className="font-semibold">Staff member</span>
          <Select name="staff" defaultValue={staffUserId ?? ""}>
            <option value="">Everyone</option>
            {staffOptions.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.name} ({member.username})
              </option>
            ))}
          </Select>
        </label>
        <label className="flex min-w-56 flex-col gap-1.5">
          <span className="font-semibold">Event</span>
          <Select name="action" defaultValue={action ?? ""}>
            <option value="">All events</option>
            {actions.map((name) => (
              <option key={name} value={name}>
                {auditActionLabel(name)}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1.5">
          <span className="font-semibold">From</span>
          <DayField name="from" defaultValue={from} className="w-44" />
        </label>
        <label className="flex flex-col gap-1.5">
          <span className="font-semibold">To</span>
          <DayField name="to" defaultValue={to} className="w-44" />
        </label>
        <Button type="submit" variant="secondary">
          Show
        </Button>
        {isFiltered ? (
          <Link href="/admin/audit" className="pb-2.5 text-brand-700 underline-offset-4 hover:underline">
            Clear filters
          </Link>
        ) : null}
      </form>

      {events.length === 0 ? (
        <EmptyState title="No events match">
          {isFiltered ? "Try another staff member, event or days, or clear the filters." : "Events appear here as staff sign in and make changes."}
        </EmptyState>
      ) : (
        <>
          <AuditEvents events={events} names={names} canOpenTokens={canOpenTokens} />
          <nav aria-label="Pages" className="mt-4 flex items-center justify-between">
            <p className="text-ink-muted">
              {total} event{total === 1 ? "" : "s"} · page {page} of {pageCount}
            </p>
            <div className="flex gap-3">
              {page > 1 ? (
                <Button variant="secondary" size="sm" asChild>
                  <Link href={pageHref(page - 1)} rel="prev">
                    <ChevronLeft aria-hidden className="size-4" /> Newer
                  </Link>
                </Button>
              ) : null}
              {page < pageCount ? (
                <Button variant="secondary" size="sm" asChild>
                  <Link href={pageHref(page + 1)} rel="next">
                    Older <ChevronRight aria-hidden className="size-4" />
                  </Link>
                </Button>
              ) : null}
            </div>
          </nav>
        </>
      )}
    </>
  );
}
