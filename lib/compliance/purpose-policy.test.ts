import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ID_TYPES, idTypeLabels, type IdType } from "@/lib/domain/id-types";
import { allowedIdTypes, checkPurposePolicy, describePolicy, isPurposeOfferedFor, listOf, unknownPurposeMessage, type PurposePolicy, type TokenKind } from "./purpose-policy";

const kinds: TokenKind[] = ["fingerprint", "remote"];

// The default set the migration 0009 inserts, as the bank's policy reads it.
const defaults: PurposePolicy[] = [
  { id: "1", name: "Account opening", allowsFingerprint: true, allowsRemote: true, remoteIdTypes: ["GHANA_CARD"], isActive: true },
  { id: "2", name: "Loan disbursement", allowsFingerprint: true, allowsRemote: true, remoteIdTypes: [...ID_TYPES], isActive: true },
  { id: "3", name: "Cash withdrawal", allowsFingerprint: true, allowsRemote: false, remoteIdTypes: [], isActive: true },
  { id: "4", name: "Card replacement", allowsFingerprint: true, allowsRemote: true, remoteIdTypes: ["PASSPORT", "GHANA_CARD"], isActive: true },
  { id: "5", name: "Retired", allowsFingerprint: true, allowsRemote: true, remoteIdTypes: [...ID_TYPES], isActive: false },
];

/** The rule written independently of the implementation: what the bank's table says. */
function isAllowedByTable(policy: PurposePolicy, kind: TokenKind, idType: IdType): boolean {
  if (!policy.isActive) return false;
  if (kind === "fingerprint") return policy.allowsFingerprint && idType === "GHANA_CARD";
  return policy.allowsRemote && policy.remoteIdTypes.includes(idType);
}

const policyArbitrary = fc.record({
  id: fc.uuid(),
  name: fc.string({ minLength: 3, maxLength: 30 }),
  allowsFingerprint: fc.boolean(),
  allowsRemote: fc.boolean(),
  remoteIdTypes: fc.subarray([...ID_TYPES]),
  isActive: fc.boolean(),
});

describe("the purpose policy check", () => {
  it.each(defaults.flatMap((policy) => kinds.flatMap((kind) => ID_TYPES.map((idType) => [policy.name, kind, idType] as const))))(
    "%s × %s × %s follows the bank's table",
    (name, kind, idType) => {
      const policy = defaults.find((entry) => entry.name === name)!;
      const verdict = checkPurposePolicy(policy, kind, idType);
      expect(verdict.ok).toBe(isAllowedByTable(policy, kind, idType));
      if (!verdict.ok && policy.isActive) expect(verdict.message).toContain(`"${policy.name}"`);
    },
  );

  it("allows exactly the table's combinations for any policy (property)", () => {
    fc.assert(
      fc.property(policyArbitrary, fc.constantFrom(...kinds), fc.constantFrom(...ID_TYPES), (policy, kind, idType) => {
        const verdict = checkPurposePolicy(policy, kind, idType);
        expect(verdict.ok).toBe(isAllowedByTable(policy, kind, idType));
        // What the form offers is exactly what the server accepts.
        expect(allowedIdTypes(policy, kind).includes(idType)).toBe(verdict.ok);
        if (!verdict.ok) {
          const kindRefused = !isPurposeOfferedFor(policy, kind);
          expect(verdict.field).toBe(kindRefused ? "purpose" : "idType");
          if (policy.isActive) expect(verdict.message).toContain(policy.name);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("names the policy and what it allows", () => {
    expect(checkPurposePolicy(defaults[0], "remote", "PASSPORT")).toEqual({
      ok: false,
      field: "idType",
      message: 'The bank\'s policy for "Account opening" allows only Ghana Card.',
    });
    expect(checkPurposePolicy(defaults[2], "remote", "GHANA_CARD")).toEqual({
      ok: false,
      field: "purpose",
      message: 'The bank\'s policy for "Cash withdrawal" does not allow remote tokens.',
    });
    expect(checkPurposePolicy(undefined, "fingerprint", "GHANA_CARD")).toEqual({ ok: false, field: "purpose", message: unknownPurposeMessage });
    expect(checkPurposePolicy(defaults[4], "fingerprint", "GHANA_CARD")).toEqual({ ok: false, field: "purpose", message: unknownPurposeMessage });
  });

  it("lists the allowed types in the canonical order and describes the policy", () => {
    expect(allowedIdTypes(defaults[3]!, "remote")).toEqual(["GHANA_CARD", "PASSPORT"]);
    expect(listOf(["Ghana Card", "Voter ID", "Passport"])).toBe("Ghana Card, Voter ID or Passport");
    expect(describePolicy(defaults[3]!)).toBe(`Fingerprint (Ghana Card) · Remote (${idTypeLabels.GHANA_CARD} or ${idTypeLabels.PASSPORT})`);
    expect(describePolicy(defaults[2]!)).toBe("Fingerprint (Ghana Card)");
  });
});
