import { describe, expect, it } from "vitest";
import { base32Decode, groupedSecret, secretOfTotpUri, totpCode, totpStepAt } from "./totp";

describe("authenticator codes", () => {
  it("matches RFC 6238's SHA-1 test vectors (last 6 digits)", () => {
    const secret = new TextEncoder().encode("12345678901234567890");
    expect(totpCode(secret, totpStepAt(59_000))).toBe("287082");
    expect(totpCode(secret, totpStepAt(1_111_111_109_000))).toBe("081804");
    expect(totpCode(secret, totpStepAt(2_000_000_000_000))).toBe("279037");
  });

  it("reads base32 as authenticator apps do, with spaces and lower case", () => {
    expect(Buffer.from(base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")).toString()).toBe("12345678901234567890");
    expect(base32Decode("gezd gnbv")).toEqual(base32Decode("GEZDGNBV"));
    expect(() => base32Decode("not base32!")).toThrow();
  });

  it("takes the secret out of an otpauth URI and groups it by four for typing", () => {
    expect(secretOfTotpUri("otpauth://totp/Bank:ama?secret=ABCDEFGHIJ&issuer=Bank")).toBe("ABCDEFGHIJ");
    expect(groupedSecret("ABCDEFGHIJ")).toBe("ABCD EFGH IJ");
  });
});
