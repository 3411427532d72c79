import { eq, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { AppError } from "@/lib/errors";
import { hasPermission } from "./permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";

/**
 * Which branches' records a staff member may read. Every token query (and the audit trail) goes
 * through one of the helpers below, so a branch filter can never be forgotten in one place.
 */
export type BranchScope = { kind: "all" } | { kind: "branch"; branchId: string };

export function branchScopeFor(staff: { role: StaffRole; branch: { id: string } }): BranchScope {
  return hasPermission(staff.role, "branches.all") ? { kind: "all" } : { kind: "branch", branchId: staff.branch.id };
}

export function isInBranchScope(scope: BranchScope, branchId: string | null | undefined): boolean {
  if (scope.kind === "all") return true;
  return branchId != null && branchId === scope.branchId;
}

/**
 * The WHERE condition for a scoped query: `undefined` (no filter) for "all", else the branch.
 * Use with `and(...)`: `where(and(eq(tokens.id, id), branchScopeCondition(scope, tokens.branchId)))`.
 */
export function branchScopeCondition(scope: BranchScope, branchColumn: AnyPgColumn): SQL | undefined {
  return scope.kind === "all" ? undefined : eq(branchColumn, scope.branchId);
}

/**
 * Refuses a record of another branch as NOT_FOUND, not FORBIDDEN: guessing an id must not even
 * tell whether it exists.
 */
export function assertInBranchScope(scope: BranchScope, branchId: string | null | undefined, what = "record"): void {
  if (!isInBranchScope(scope, branchId)) {
    throw new AppError("NOT_FOUND", `${what} of branch ${branchId ?? "(none)"} is outside the staff member's branch scope`);
  }
}

/**
 * Narrows a requested branch filter (e.g. `?branch=` on a list) to the scope: a branch-bound
 * member gets their own branch whatever they asked for; "all" keeps the request (or no filter).
 */
export function scopedBranchFilter(scope: BranchScope, requestedBranchId: string | undefined): string | undefined {
  return scope.kind === "branch" ? scope.branchId : requestedBranchId;
}
