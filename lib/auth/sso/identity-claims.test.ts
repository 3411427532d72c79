import { describe, expect, it } from "vitest";
import { isExactUsername, readIdentityClaims, refusalByAccount, refusalByClaims, showsSecondFactor, shownUsernameClaim, type SsoPolicy } from "./identity-claims";

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

  it("keeps the username claim exactly as sent: never trimmed or lower-cased", () => {
    expect(claimsOf({ preferred_username: " SUPERVISOR.HQ.SECOND " }).username).toBe(" SUPERVISOR.HQ.SECOND ");
    expect(claimsOf({ preferred_username: "supervisor.\u212Aumasi" }).username).toBe("supervisor.\u212Aumasi");
    expect(claimsOf({ preferred_username: "  " }).username).toBe("  ");
  });

  it("keeps no username from an empty or non-string claim, and drops non-string groups", () => {
    expect(claimsOf({ preferred_username: "" }).username).toBeNull();
    expect(claimsOf({ preferred_username: 42 }).username).toBeNull();
    expect(claimsOf({ preferred_username: ["teller.accra"] }).username).toBeNull();
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

describe("isExactUsername", () => {
  it("accepts a claim that is a Veridesk username as it stands", () => {
    for (const claim of ["supervisor.kumasi", "teller.accra", "k.mensah", "a_b.9", "abc", "a".repeat(40)]) expect(isExactUsername(claim), claim).toBe(true);
  });

  it("refuses what the username rule would change or refuse: case, spaces, compatibility and invisible characters, controls, length", () => {
    const refused = {
      kelvinSign: "supervisor.\u212Aumasi",
      angstromSign: "\u212Bdmin",
      fullwidth: "ｓｕｐｅｒｖｉｓｏｒ.ｋｕｍａｓｉ",
      fullwidthStop: "supervisor\uFF0Ekumasi",
      uppercase: "SUPERVISOR.HQ.SECOND",
      mixedCase: "Supervisor.Kumasi",
      dottedCapitalI: "\u0130dris",
      cyrillicEs: "\u0455upervisor.kumasi",
      longS: "\u017Fupervisor.kumasi",
      leadingAndTrailingSpaces: " supervisor.hq.second ",
      trailingNewline: "supervisor.kumasi\n",
      tab: "supervisor.kumasi\t",
      nul: "supervisor.kumasi\u0000",
      nulInside: "supervisor\u0000.kumasi",
      zeroWidthJoiner: "supervisor.ku\u200Dmasi",
      zeroWidthSpace: "\u200Bsupervisor.kumasi",
      softHyphen: "supervisor.ku\u00ADmasi",
      combiningDot: "supervisor.kumasi\u0307",
      rightToLeftOverride: "\u202Esupervisor.kumasi",
      tooShort: "ab",
      tooLong: "a".repeat(41),
      twoHundredCharacters: "supervisor.kumasi".padEnd(200, "x"),
      email: "supervisor.kumasi@bank.example",
      domainQualified: "BANK\\supervisor.kumasi",
      hyphen: "supervisor-kumasi",
      blank: "   ",
    };
    for (const [name, claim] of Object.entries(refused)) expect(isExactUsername(claim), name).toBe(false);
  });
});

describe("shownUsernameClaim", () => {
  it("writes every character that is not visible ASCII as its code point, so the audit shows why", () => {
    expect(shownUsernameClaim("supervisor.kumasi")).toBe("supervisor.kumasi");
    expect(shownUsernameClaim("supervisor.\u212Aumasi")).toBe("supervisor.\\u{212A}umasi");
    expect(shownUsernameClaim(" SUPERVISOR.HQ.SECOND ")).toBe("\\u{20}SUPERVISOR.HQ.SECOND\\u{20}");
    expect(shownUsernameClaim("a\u0000b\u200D")).toBe("a\\u{0}b\\u{200D}");
  });

  it("bounds a long claim", () => {
    expect(shownUsernameClaim("x".repeat(5_000))).toBe(`${"x".repeat(120)}…`);
  });
});
