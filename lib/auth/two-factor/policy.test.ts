import { describe, expect, it } from "vitest";
import { mustEnrolSecondFactor, mustHaveSecondFactor } from "./policy";

describe("who must have a second factor", () => {
  it("`admins`: the administrators only; `all`: every role", () => {
    expect(mustHaveSecondFactor("admin", "admins")).toBe(true);
    for (const role of ["teller", "supervisor", "head_office_supervisor"] as const) {
      expect(mustHaveSecondFactor(role, "admins"), role).toBe(false);
      expect(mustHaveSecondFactor(role, "all"), role).toBe(true);
    }
  });

  it("holds at enrolment a session signed in with the password alone, not one that proved a second factor", () => {
    expect(mustEnrolSecondFactor({ role: "admin", signInMethod: "password" }, "admins")).toBe(true);
    for (const method of ["totp", "backup_code", "passkey", "sso"] as const) {
      expect(mustEnrolSecondFactor({ role: "admin", signInMethod: method }, "admins"), method).toBe(false);
    }
    expect(mustEnrolSecondFactor({ role: "teller", signInMethod: "password" }, "admins")).toBe(false);
    expect(mustEnrolSecondFactor({ role: "teller", signInMethod: "password" }, "all")).toBe(true);
  });
});
