import "server-only";

/**
 * What pages, route handlers and actions need from authentication, in one import:
 *
 *   pages:   const staff = await requirePermission("tokens.view");   // or requireStaff()
 *   routes:  export const GET = staffRoute({ permission: "tokens.view", countsAsActivity: false }, handler);
 *   actions: defineAction({ …, permission: "tokens.issue" }, run)    // from "@/lib/actions"
 *   queries: branchScopeCondition(branchScopeFor(staff), tokenRequests.branchId)
 */
export { getCurrentStaff, getCurrentSession, authenticate, revokeAllSessionsOf } from "./session";
export { requireStaff, requirePermission } from "./pages";
export { staffRoute, errorResponse, type StaffRouteContext } from "./route";
export { branchScopeFor, branchScopeCondition, assertInBranchScope, isInBranchScope, scopedBranchFilter, type BranchScope } from "./branch-scope";
export { hasPermission, permissionsOf, rolesWith, permissionLabels, PERMISSIONS, type Permission } from "./permissions";
export { STAFF_ROLES, roleLabels, isStaffRole, type StaffRole } from "./roles";
export type { Staff } from "./types";
