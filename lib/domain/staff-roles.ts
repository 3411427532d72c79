/**
 * The roles a staff account can hold. Plain data (no server-only import): the database schema,
 * server code and client components all read it.
 */
export const STAFF_ROLES = ["teller", "supervisor", "head_office_supervisor", "admin"] as const;

export type StaffRole = (typeof STAFF_ROLES)[number];

export const roleLabels: Record<StaffRole, string> = {
  teller: "Teller",
  supervisor: "Branch supervisor",
  head_office_supervisor: "Head-office supervisor",
  admin: "Administrator",
};

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);
}
