import { describe, expect, it } from "vitest";
import { approvalToCreate, describeCreateApprovals, describeRoleApproval } from "./approval-words";

describe("what the Add staff page promises", () => {
  it("says every role of the form waits for a second administrator, and why, as the server decides", () => {
    expect(approvalToCreate("teller")).toBe("customer_data");
    expect(approvalToCreate("head_office_supervisor")).toBe("customer_data");
    expect(approvalToCreate("admin")).toBe("administrator");
    const promise = describeCreateApprovals();
    expect(promise).toBe(
      "Every role waits for a second administrator's approval: Teller, Branch supervisor and Head-office supervisor (see customer data) and Administrator (manages staff). Until then the account does not exist and cannot sign in.",
    );
    expect(promise).not.toMatch(/as soon as it is created/);
  });

  it("names the chosen role's reason under the field", () => {
    expect(describeRoleApproval("supervisor")).toBe("Branch supervisor sees customer data: the account is created only when a second administrator approves it.");
    expect(describeRoleApproval("admin")).toBe("Administrator manages staff: the account is created only when a second administrator approves it.");
  });
});
