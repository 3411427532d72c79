import { describe, expect, it } from "vitest";
import { readIdentityClaims, refusalByAccount, refusalByClaims, showsSecondFactor, type SsoPolicy } from "./identity-claims";

const policy: SsoPolicy = {
  usernameClaim: "preferred_username",
  groupsClaim: "groups",
  requiredGroup: "veridesk-users",
  adminGroup: "veridesk-admins",
  requiresMfa: true,
  mfaAmr: ["mfa", "otp", "hwk"],
};

const claimsOf = (extra: Record<string, unknown>) =>
  readIdentityClaims({ iss: "https://idp.bank", sub: "s-1", preferred_username: "teller.accra", groups: ["veridesk-users"], amr: ["pwd", "otp"], ...extra }, policy);

describe("readIdentityClaims", () => {
  it("reads issuer, subject, username, groups, amr and acr", () => {
    expect(claimsOf({ acr: "urn:x" })).toEqual({
      issuer: "https://idp.bank",
      subject: "s-1",
      username: "teller.accra",
      groups: ["veridesk-users"],
      amr: ["pwd", "otp"],
      acr: "urn:x",
    });
  });

  it("reads a claim named by the settings, a space-separated group string, and Entra's acrs", () => {
    const identity = readIdentityClaims({ iss: "i", sub: "s", upn: "k.mensah", roles: "a b", acrs: ["c1"] }, { usernameClaim: "upn", groupsClaim: "roles" });
    expect(identity.username).toBe("k.mensah");
    expect(identity.groups).toEqual(["a", "b"]);
    expect(identity.acr).toBe("c1");
  });

  it("keeps no username from an empty or non-string claim, and drops non-string groups", () => {
    expect(claimsOf({ preferred_username: "  " }).username).toBeNull();
    expect(claimsOf({ preferred_username: 42 }).username).toBeNull();
    expect(claimsOf({ groups: ["veridesk-users", 7, null] }).groups).toEqual(["veridesk-users"]);
    expect(claimsOf({ amr: undefined }).amr).toEqual([]);
  });
});

describe("refusalByClaims", () => {
  it("lets in a member of the required group with a second factor", () => {
    expect(refusalByClaims(claimsOf({}), policy)).toBeNull();
  });

  it("refuses a person outside the required group, before anything else", () => {
    expect(refusalByClaims(claimsOf({ groups: ["finance"], amr: ["pwd"] }), policy)).toBe("not_in_required_group");
  });

  it("refuses a password-only sign-in when a second factor is required, and not when it is not", () => {
    expect(refusalByClaims(claimsOf({ amr: ["pwd"] }), policy)).toBe("no_second_factor");
    expect(refusalByClaims(claimsOf({ amr: ["pwd"] }), { ...policy, requiresMfa: false })).toBeNull();
  });

  it("counts an acr configured as multi-factor when the provider sends no amr", () => {
    const identity = claimsOf({ amr: undefined, acr: "urn:bank:mfa" });
    expect(showsSecondFactor(identity, policy)).toBe(false);
    expect(showsSecondFactor(identity, { ...policy, mfaAcr: ["urn:bank:mfa"] })).toBe(true);
  });

  it("has no required group when none is set", () => {
    expect(refusalByClaims(claimsOf({ groups: [] }), { ...policy, requiredGroup: undefined })).toBeNull();
  });
});

describe("refusalByAccount", () => {
  it("refuses a disabled account", () => {
    expect(refusalByAccount({ role: "teller", disabledAt: new Date() }, claimsOf({}), policy)).toBe("disabled");
  });

  it("refuses an administrator outside the admin group, and lets one inside it in", () => {
    expect(refusalByAccount({ role: "admin", disabledAt: null }, claimsOf({}), policy)).toBe("admin_not_in_admin_group");
    expect(refusalByAccount({ role: "admin", disabledAt: null }, claimsOf({ groups: ["veridesk-users", "veridesk-admins"] }), policy)).toBeNull();
  });

  it("does not ask other roles for the admin group, nor administrators when no admin group is set", () => {
    expect(refusalByAccount({ role: "supervisor", disabledAt: null }, claimsOf({}), policy)).toBeNull();
    expect(refusalByAccount({ role: "admin", disabledAt: null }, claimsOf({}), { ...policy, adminGroup: undefined })).toBeNull();
  });
});
