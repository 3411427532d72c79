import { describe, expect, it } from "vitest";
import { authenticatorFlagsOf, isCounterRegression, signatureCounterOf } from "./authenticator-flags";

function authenticatorData(flags: number, counter: number): string {
  const bytes = Buffer.alloc(37);
  bytes[32] = flags;
  bytes.writeUInt32BE(counter, 33);
  return bytes.toString("base64url");
}

describe("authenticatorFlagsOf", () => {
  it("reads user presence and user verification from the flags byte", () => {
    expect(authenticatorFlagsOf(authenticatorData(0x01, 0))).toEqual({ userPresent: true, userVerified: false });
    expect(authenticatorFlagsOf(authenticatorData(0x05, 0))).toEqual({ userPresent: true, userVerified: true });
    // Attested data and extensions (0x40, 0x80) leave UV as it is.
    expect(authenticatorFlagsOf(authenticatorData(0x45 | 0x80, 0))).toEqual({ userPresent: true, userVerified: true });
    expect(authenticatorFlagsOf(authenticatorData(0x00, 0))).toEqual({ userPresent: false, userVerified: false });
  });

  it("gives nothing for data too short to be authenticator data", () => {
    expect(authenticatorFlagsOf("")).toBeNull();
    expect(authenticatorFlagsOf(Buffer.alloc(36).toString("base64url"))).toBeNull();
  });
});

describe("the signature counter", () => {
  it("is read big-endian after the flags", () => {
    expect(signatureCounterOf(authenticatorData(0x05, 258))).toBe(258);
    expect(signatureCounterOf("")).toBeNull();
  });

  it("must move forward once either side counts; authenticators that never count may send 0", () => {
    expect(isCounterRegression(0, 0)).toBe(false);
    expect(isCounterRegression(0, 1)).toBe(false);
    expect(isCounterRegression(5, 6)).toBe(false);
    expect(isCounterRegression(5, 5)).toBe(true);
    expect(isCounterRegression(5, 4)).toBe(true);
    expect(isCounterRegression(5, 0)).toBe(true);
  });
});
