import type { StaffRole } from "@/lib/domain/staff-roles";

/**
 * What each role may do — the ONE table of authorisation in Veridesk (ADR 0003). Pages, route
 * handlers and actions ask `hasPermission`; nothing else in the app compares role names.
 */
export const PERMISSIONS = [
  /** Generate fingerprint and remote tokens at the counter. */
  "tokens.issue",
  /** See tokens (list, detail, live state) — of the own branch unless `branches.all`. */
  "tokens.view",
  /**
   * Give an issuing attempt whose answer never came the token from the customer's SMS, so it is
   * followed after all (ADR 0017) — of the own branch unless `branches.all`. A supervisor's act,
   * never the issuing teller's: the token is read off the customer's own phone by a second person,
   * and lib/tokens refuses anyone who issued the attempt, whatever their role (ADR 0037).
   */
  "tokens.recover",
  /** Widens every branch-scoped read (tokens, figures, audit) from the own branch to all branches. */
  "branches.all",
  /** Show a full ID number instead of the masked one (each reveal is audited). */
  "ids.reveal",
  /** Download the token list as CSV, ID numbers masked. */
  "tokens.export",
  /** Download the CSV with full ID numbers (a separate, rarer right). */
  "tokens.export_full_ids",
  /** Create, edit, disable staff accounts, reset passwords, manage branches. */
  "staff.manage",
  /** Read the audit trail (own branch unless `branches.all`). */
  "audit.read",
  /** Manage the bank's verification purposes and their policies. */
  "compliance.manage",
  /**
   * A customer's own records: produce the record of verifications held for an ID number,
   * erase on the customer's request, place and release legal holds. Each with a reason, audited.
   */
  "customers.records",
  /** The Operations page: the provider budget, the watcher's backlog, readiness. Counts, no customer data. */
  "operations.view",
  /**
   * Risk cases (ADR 0046): those routed to the own branch, or every branch's and staff cases with
   * `branches.all`; never a case about oneself. Tellers never hold it: nothing can tip a customer off.
   */
  "risk.cases",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const permissionLabels: Record<Permission, string> = {
  "tokens.issue": "Issue tokens",
  "tokens.view": "View branch tokens",
  "tokens.recover": "Enter a teller's token from the customer's SMS",
  "branches.all": "View all branches",
  "ids.reveal": "Reveal ID numbers",
  "tokens.export": "Export",
  "tokens.export_full_ids": "Export with full ID numbers",
  "staff.manage": "Manage staff and branches",
  "audit.read": "Read the audit trail",
  "compliance.manage": "Manage purposes and compliance settings",
  "customers.records": "Customer records, erasure on request and legal holds",
  "operations.view": "See how the service runs (operations)",
  "risk.cases": "Risk alerts and cases",
};

export const rolePermissions: Readonly<Record<StaffRole, readonly Permission[]>> = {
  teller: ["tokens.issue", "tokens.view"],
  supervisor: ["tokens.view", "tokens.recover", "ids.reveal", "tokens.export", "audit.read", "customers.records", "risk.cases"],
  head_office_supervisor: ["tokens.view", "tokens.recover", "branches.all", "ids.reveal", "tokens.export", "tokens.export_full_ids", "audit.read", "customers.records", "risk.cases"],
  admin: ["staff.manage", "branches.all", "audit.read", "compliance.manage", "operations.view"],
};

export function hasPermission(role: StaffRole, permission: Permission): boolean {
  return rolePermissions[role].includes(permission);
}

export function permissionsOf(role: StaffRole): readonly Permission[] {
  return rolePermissions[role];
}

/** The roles holding a permission — the access matrix of the e2e suite is derived from this. */
export function rolesWith(permission: Permission): StaffRole[] {
  return (Object.keys(rolePermissions) as StaffRole[]).filter((role) => hasPermission(role, permission));
}
