import { describe, expect, it } from "vitest";
import { mayChangeSecondFactors, mustEnrolSecondFactor, mustHaveSecondFactor, passwordSessionRefusal } from "./policy";

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

describe("a second factor before any session", () => {
  const none = { hasAuthenticator: false, passkeyCount: 0 };
  const passkeyOnly = { hasAuthenticator: false, passkeyCount: 1 };
  const authenticatorOnly = { hasAuthenticator: true, passkeyCount: 0 };
  const both = { hasAuthenticator: true, passkeyCount: 2 };

  it("refuses a password session to any account that holds a factor, but for the authenticator's own code step", () => {
    expect(passwordSessionRefusal("password", none, true)).toBeNull();
    expect(passwordSessionRefusal("password", passkeyOnly, true)).toBe("passkey_required");
    expect(passwordSessionRefusal("password", authenticatorOnly, true)).toBeNull();
    expect(passwordSessionRefusal("password", both, true)).toBeNull();
    expect(passwordSessionRefusal("password", authenticatorOnly, false)).toBe("second_factor_required");
    for (const method of ["totp", "backup_code", "passkey", "sso"] as const) {
      expect(passwordSessionRefusal(method, both, false), method).toBeNull();
    }
  });

  it("lets only a session that proved a factor change the factors of an account that holds one", () => {
    expect(mayChangeSecondFactors("password", none)).toBe(true);
    for (const held of [passkeyOnly, authenticatorOnly, both]) expect(mayChangeSecondFactors("password", held)).toBe(false);
    for (const method of ["totp", "backup_code", "passkey", "sso"] as const) expect(mayChangeSecondFactors(method, both), method).toBe(true);
  });
});
