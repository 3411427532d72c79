import { hasPermission, type Permission } from "@/lib/auth/permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";

/**
 * Separation of duties (ADR 0020), as pure rules the service and its tests share. Derived from
 * the permission table, never from role names, so a role added later is judged by what it may do.
 */

/** The permissions that show or act on customers' data (tokens, ID numbers, exports). */
export const CUSTOMER_DATA_PERMISSIONS: readonly Permission[] = [
  "tokens.issue",
  "tokens.view",
  "tokens.recover",
  "ids.reveal",
  "tokens.export",
  "tokens.export_full_ids",
];

export function seesCustomerData(role: StaffRole): boolean {
  return CUSTOMER_DATA_PERMISSIONS.some((permission) => hasPermission(role, permission));
}

/** The administrators' own role: the one that grants roles, hence the checker's too. */
export const isAdministratorRole = (role: StaffRole) => hasPermission(role, "staff.manage");

type Placement = { role: StaffRole; branchId: string };

/**
 * Does moving an account from `before` (null: a new account) to `after` give it customer data it
 * could not reach before: a customer-data permission it lacked, or the same on another branch, or
 * on all branches? Lowering (fewer rights, same reach) is not a grant.
 */
export function widensCustomerDataAccess(before: Placement | null, after: Placement): boolean {
  const granted = CUSTOMER_DATA_PERMISSIONS.filter((permission) => hasPermission(after.role, permission));
  if (granted.length === 0) return false;
  if (!before) return true;
  const beforeAll = hasPermission(before.role, "branches.all");
  const afterAll = hasPermission(after.role, "branches.all");
  const reachCovered = beforeAll || (!afterAll && before.branchId === after.branchId);
  if (!reachCovered) return true;
  return granted.some((permission) => !hasPermission(before.role, permission));
}

export type GrantDecision =
  | { kind: "direct" }
  | { kind: "needs_second_admin"; reason: "customer_data" | "administrator" }
  | { kind: "refused"; reason: "own_account" | "admin_to_customer_data"; userMessage: string };

/**
 * What an administrator's change of an account's role and branch takes. `actorUserId` is the
 * administrator; `subjectUserId` the account (null: creating one).
 */
export function decideGrant(input: {
  actorUserId: string;
  subjectUserId: string | null;
  before: Placement | null;
  after: Placement;
}): GrantDecision {
  const { actorUserId, subjectUserId, before, after } = input;
  const changesPlacement = !before || before.role !== after.role || before.branchId !== after.branchId;
  if (subjectUserId !== null && subjectUserId === actorUserId && changesPlacement) {
    return { kind: "refused", reason: "own_account", userMessage: "You cannot change your own role or branch. Ask another administrator." };
  }
  // An administrator's account never holds a customer-data role: whoever administered staff gets a
  // separate account for counter or review work, so the two duties never meet in one sign-in.
  if (before && isAdministratorRole(before.role) && seesCustomerData(after.role)) {
    return {
      kind: "refused",
      reason: "admin_to_customer_data",
      userMessage: "An administrator's account cannot be given a role that sees customer data. Create a separate account for that work.",
    };
  }
  if (widensCustomerDataAccess(before, after)) return { kind: "needs_second_admin", reason: "customer_data" };
  // Making an administrator needs a second one too, or one admin could make a second admin and
  // approve their own proposals through it.
  if (isAdministratorRole(after.role) && !(before && isAdministratorRole(before.role))) {
    return { kind: "needs_second_admin", reason: "administrator" };
  }
  return { kind: "direct" };
}

/** Who may decide a pending proposal: a different administrator than its author and its subject. */
export function canDecide(input: { deciderUserId: string; proposedByUserId: string; subjectUserId: string | null }): "approve_or_reject" | "cancel_only" | "none" {
  if (input.deciderUserId === input.proposedByUserId) return "cancel_only";
  if (input.subjectUserId !== null && input.deciderUserId === input.subjectUserId) return "none";
  return "approve_or_reject";
}
