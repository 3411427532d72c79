import { describe, expect, it } from "vitest";
import { hasPermission, PERMISSIONS, permissionsOf, rolePermissions, rolesWith, type Permission } from "./permissions";
import { STAFF_ROLES, type StaffRole } from "@/lib/domain/staff-roles";

// The table as the ADR (docs/decisions/0003) writes it: a change here must be a change there.
const expected: Record<StaffRole, Permission[]> = {
  teller: ["tokens.issue", "tokens.view"],
  supervisor: ["tokens.view", "tokens.recover", "ids.reveal", "tokens.export", "audit.read", "customers.records", "risk.cases"],
  head_office_supervisor: ["tokens.view", "tokens.recover", "branches.all", "ids.reveal", "tokens.export", "tokens.export_full_ids", "audit.read", "customers.records", "risk.cases"],
  admin: ["staff.manage", "branches.all", "audit.read", "compliance.manage", "operations.view"],
};

describe("role → permission table", () => {
  it.each(STAFF_ROLES)("gives %s exactly its documented permissions", (role) => {
    for (const permission of PERMISSIONS) {
      expect(hasPermission(role, permission), `${role} / ${permission}`).toBe(expected[role].includes(permission));
    }
  });

  it("covers every role and names only known permissions", () => {
    expect(Object.keys(rolePermissions).sort()).toEqual([...STAFF_ROLES].sort());
    for (const role of STAFF_ROLES) {
      for (const permission of permissionsOf(role)) expect(PERMISSIONS).toContain(permission);
      expect(new Set(permissionsOf(role)).size).toBe(permissionsOf(role).length);
    }
  });

  it("keeps the separations the bank relies on", () => {
    // Only counter staff issue tokens; reviewers review.
    expect(rolesWith("tokens.issue")).toEqual(["teller"]);
    // Full ID numbers leave the system only through head office.
    expect(rolesWith("tokens.export_full_ids")).toEqual(["head_office_supervisor"]);
    // Staff administration is its own role, with no access to customers' tokens.
    expect(rolesWith("staff.manage")).toEqual(["admin"]);
    expect(hasPermission("admin", "tokens.view")).toBe(false);
    expect(hasPermission("admin", "ids.reveal")).toBe(false);
    // A token from the customer's SMS is attached by a supervisor, never by the counter (ADR 0037).
    expect(rolesWith("tokens.recover")).toEqual(["supervisor", "head_office_supervisor"]);
    // Risk cases: supervisors and head office; never the counter, never the administrator (ADR 0046).
    expect(rolesWith("risk.cases")).toEqual(["supervisor", "head_office_supervisor"]);
    // Tellers never see other branches, nor full IDs.
    expect(hasPermission("teller", "branches.all")).toBe(false);
    expect(hasPermission("teller", "ids.reveal")).toBe(false);
  });

  it("makes every permission that exports full IDs imply the plain export", () => {
    for (const role of rolesWith("tokens.export_full_ids")) expect(hasPermission(role, "tokens.export")).toBe(true);
  });
});
