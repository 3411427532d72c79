import "server-only";
import { and, eq, ne, or, sql, type SQL } from "drizzle-orm";
import { branchScopeCondition, branchScopeFor } from "@/lib/auth/branch-scope";
import { hasPermission } from "@/lib/auth/permissions";
import { auditEvents, riskAlerts, riskCases } from "@/lib/db/schema";
import type { StaffRole } from "@/lib/domain/staff-roles";

/**
 * Who a risk case is routed to, and with it everything that speaks of one: its alerts, its rule
 * hits and the audit rows about them (ADRs 0046, 0050). One rule, in one place, because every
 * reader must apply the same one — the case list, the case page, the rule figures, the backtest,
 * the audit page and its CSV, the counts. The rule:
 * - nobody without `risk.cases` (tellers, administrators) sees any case;
 * - nobody sees a case about themselves;
 * - a branch supervisor sees the customer cases routed to their branch (its latest token's), never
 *   a staff case — so never one about a colleague they supervise;
 * - head office (`branches.all`) sees every case but their own.
 *
 * It lives below lib/risk and lib/review (which may not import each other) so both read it. A case
 * the viewer may not see is not there for them: no row, no count, no rule name, no severity.
 */

export type CaseViewer = { userId: string; username: string; role: StaffRole; branch: { id: string } };

export function canSeeCases(viewer: Pick<CaseViewer, "role">): boolean {
  return hasPermission(viewer.role, "risk.cases");
}

function isHeadOffice(viewer: Pick<CaseViewer, "role">): boolean {
  return hasPermission(viewer.role, "branches.all");
}

/** The WHERE condition on `risk_cases`; `undefined` never: a viewer without the right gets `false`. */
export function caseRoutingCondition(viewer: CaseViewer): SQL {
  if (!canSeeCases(viewer)) return sql`false`;
  const notAboutThem = sql`${riskCases.subjectUserId} is distinct from ${viewer.userId}`;
  if (isHeadOffice(viewer)) return notAboutThem;
  return and(notAboutThem, ne(riskCases.subjectType, "staff"), eq(riskCases.routeBranchId, viewer.branch.id))!;
}

/** The facts routing reads, for what is not yet a row of `risk_cases` (a backtest's hit). */
export type CaseRoutingFacts = { subjectType: string; subjectUserId: string | null; routeBranchId: string | null };

/** The same rule as `caseRoutingCondition`, in TypeScript; `case-routing.integration.test.ts` holds the two equal. */
export function isCaseRoutedTo(viewer: CaseViewer, facts: CaseRoutingFacts): boolean {
  if (!canSeeCases(viewer)) return false;
  if (facts.subjectUserId !== null && facts.subjectUserId === viewer.userId) return false;
  if (isHeadOffice(viewer)) return true;
  return facts.subjectType !== "staff" && facts.routeBranchId === viewer.branch.id;
}

/**
 * An alert as its case is routed. A shadow alert joins no case: it is routed as a case of its
 * subject would be — head office only (a customer's branch is decided when a case opens), never
 * to the staff member it is about.
 */
export function alertRoutingCondition(viewer: CaseViewer): SQL {
  if (!canSeeCases(viewer)) return sql`false`;
  const routedCase = sql`exists (select 1 from ${riskCases} where ${riskCases.id} = ${riskAlerts.caseId} and ${caseRoutingCondition(viewer)})`;
  if (!isHeadOffice(viewer)) return and(sql`${riskAlerts.caseId} is not null`, routedCase)!;
  const notAboutThem = sql`not (${riskAlerts.subjectType} = 'staff' and ${riskAlerts.subjectKey} = ${viewer.userId})`;
  return or(and(sql`${riskAlerts.caseId} is not null`, routedCase), and(sql`${riskAlerts.caseId} is null`, notAboutThem))!;
}

/**
 * The audit actions that speak of a case, an alert or a rule hit (lib/risk/alerts.ts and cases.ts
 * write them with the case as subject). A row is about a case when its subject is one OR its action
 * is one of these, so a row written without its subject is shown to nobody rather than to everybody.
 */
const caseActionPattern = sql`(${auditEvents.action} like 'risk.case\\_%' or ${auditEvents.action} like 'risk.alert\\_%')`;
// `is not distinct from`: most rows have no subject, and a NULL here would hide them from everyone.
const isCaseRow = sql`(${auditEvents.subjectType} is not distinct from 'risk_case' or ${caseActionPattern})`;

/**
 * The case part of the routing, for readers that scope their other rows themselves (a token's
 * views, for a token the reader may open; a sheet's sign-offs): a row about a case is kept only
 * for those the case is routed to, every other row passes.
 */
export function auditCaseRouting(viewer: CaseViewer): SQL {
  if (!canSeeCases(viewer)) return sql`not ${isCaseRow}`;
  const routedCase = sql`exists (select 1 from ${riskCases} where ${riskCases.id}::text = ${auditEvents.subjectId} and ${auditEvents.subjectType} = 'risk_case' and ${caseRoutingCondition(viewer)})`;
  return or(sql`not ${isCaseRow}`, routedCase)!;
}

/**
 * The one condition every reader of `audit_events` that shows rows or counts to a person goes
 * through: a row about a case is shown exactly to those the case is routed to (whatever its
 * branch, as the case page is); every other row within the reader's branch scope.
 */
export function auditRoutingCondition(viewer: CaseViewer): SQL {
  const scope = branchScopeCondition(branchScopeFor(viewer), auditEvents.branchId);
  return and(auditCaseRouting(viewer), scope ? or(isCaseRow, scope) : undefined)!;
}

/**
 * For a reader that shows no case at all (the Operations page's sign-ins, the retention runs, a
 * sheet's sign-off): whatever its own filter, a row about a case never comes out of it.
 */
export function withoutCaseRows(): SQL {
  return sql`not ${isCaseRow}`;
}
