import { describe, expect, it } from "vitest";
import { STAFF_ROLES, type StaffRole } from "@/lib/domain/staff-roles";
import { canDecide, decideGrant, seesCustomerData, widensCustomerDataAccess } from "./separation-of-duties";

const ACC = "branch-acc";
const KUM = "branch-kum";
const at = (role: StaffRole, branchId = ACC) => ({ role, branchId });

describe("which roles see customer data", () => {
  it("every role but the administrator's", () => {
    expect(STAFF_ROLES.filter(seesCustomerData)).toEqual(["teller", "supervisor", "head_office_supervisor"]);
  });
});

describe("widening access to customer data", () => {
  it.each([
    ["a new teller", null, at("teller"), true],
    ["a new administrator (no customer data)", null, at("admin"), false],
    ["teller → supervisor (reveal, export)", at("teller"), at("supervisor"), true],
    ["supervisor → teller (issuing)", at("supervisor"), at("teller"), true],
    ["supervisor → head office (all branches, full IDs)", at("supervisor"), at("head_office_supervisor"), true],
    ["teller at ACC → teller at KUM (another branch's customers)", at("teller"), at("teller", KUM), true],
    ["head office → supervisor at KUM (narrower)", at("head_office_supervisor"), at("supervisor", KUM), false],
    ["supervisor → administrator", at("supervisor"), at("admin"), false],
    ["unchanged", at("supervisor"), at("supervisor"), false],
  ] as const)("%s: %s", (_, before, after, expected) => {
    expect(widensCustomerDataAccess(before, after)).toBe(expected);
  });
});

describe("what an administrator's change takes", () => {
  const admin = "admin-a";
  it("a grant of customer data, or of the administrator role, needs a second administrator", () => {
    expect(decideGrant({ actorUserId: admin, subjectUserId: null, before: null, after: at("teller") })).toEqual({ kind: "needs_second_admin", reason: "customer_data" });
    expect(decideGrant({ actorUserId: admin, subjectUserId: "u1", before: at("teller"), after: at("head_office_supervisor") })).toMatchObject({ kind: "needs_second_admin" });
    expect(decideGrant({ actorUserId: admin, subjectUserId: null, before: null, after: at("admin") })).toEqual({ kind: "needs_second_admin", reason: "administrator" });
    expect(decideGrant({ actorUserId: admin, subjectUserId: "u1", before: at("teller"), after: at("admin") })).toEqual({ kind: "needs_second_admin", reason: "administrator" });
  });

  it("narrowing, renaming and moving an administrator are direct", () => {
    expect(decideGrant({ actorUserId: admin, subjectUserId: "u1", before: at("head_office_supervisor"), after: at("supervisor") })).toEqual({ kind: "direct" });
    expect(decideGrant({ actorUserId: admin, subjectUserId: "u1", before: at("teller"), after: at("teller") })).toEqual({ kind: "direct" });
    expect(decideGrant({ actorUserId: admin, subjectUserId: "u2", before: at("admin"), after: at("admin", KUM) })).toEqual({ kind: "direct" });
  });

  it("an administrator's account never gets a customer-data role, whoever asks", () => {
    for (const role of ["teller", "supervisor", "head_office_supervisor"] as const) {
      expect(decideGrant({ actorUserId: admin, subjectUserId: "admin-b", before: at("admin"), after: at(role) })).toMatchObject({
        kind: "refused",
        reason: "admin_to_customer_data",
      });
    }
  });

  it("nobody changes their own role or branch", () => {
    expect(decideGrant({ actorUserId: admin, subjectUserId: admin, before: at("admin"), after: at("head_office_supervisor") })).toMatchObject({ kind: "refused", reason: "own_account" });
    expect(decideGrant({ actorUserId: admin, subjectUserId: admin, before: at("admin"), after: at("admin", KUM) })).toMatchObject({ kind: "refused", reason: "own_account" });
    // Their own name alone is fine.
    expect(decideGrant({ actorUserId: admin, subjectUserId: admin, before: at("admin"), after: at("admin") })).toEqual({ kind: "direct" });
  });
});

describe("who decides a proposal", () => {
  it("another administrator than its author and its subject", () => {
    expect(canDecide({ deciderUserId: "b", proposedByUserId: "a", subjectUserId: "t" })).toBe("approve_or_reject");
    expect(canDecide({ deciderUserId: "b", proposedByUserId: "a", subjectUserId: null })).toBe("approve_or_reject");
    expect(canDecide({ deciderUserId: "a", proposedByUserId: "a", subjectUserId: "t" })).toBe("cancel_only");
    expect(canDecide({ deciderUserId: "t", proposedByUserId: "a", subjectUserId: "t" })).toBe("none");
  });
});
