import { describe, expect, it } from "vitest";
import { isSupportCode, newSupportCode, parseSupportCode, supportCodeAlphabet } from "./support-code";

describe("support code", () => {
  it("is 8 characters of an alphabet without look-alikes", () => {
    for (let i = 0; i < 500; i += 1) {
      const code = newSupportCode();
      expect(code).toMatch(/^[346789ABCDEFGHJKMNPQRTVWXY]{8}$/);
      expect(isSupportCode(code)).toBe(true);
    }
    for (const ambiguous of ["0", "O", "1", "I", "L", "U", "5", "S", "2", "Z"]) expect(supportCodeAlphabet).not.toContain(ambiguous);
  });

  it("does not repeat across many requests", () => {
    const codes = new Set(Array.from({ length: 20_000 }, () => newSupportCode()));
    expect(codes.size).toBe(20_000);
  });

  it("uses every letter with about the same frequency (no modulo bias)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 5_000; i += 1) for (const char of newSupportCode()) counts.set(char, (counts.get(char) ?? 0) + 1);
    const expected = (5_000 * 8) / supportCodeAlphabet.length;
    expect(counts.size).toBe(supportCodeAlphabet.length);
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.15);
  });

  it("skips bytes that would bias the first letters", () => {
    // 26 letters: bytes 234..255 are rejected; 0 → first letter, 25 → last.
    const bytes = [250, 255, 0, 25, 26, 234, 1, 2, 3, 4, 5, 6];
    const code = newSupportCode((buffer) => {
      buffer.set(bytes.slice(0, buffer.length).concat(Array(Math.max(0, buffer.length - bytes.length)).fill(0)));
      return buffer;
    });
    expect(code).toBe(`${supportCodeAlphabet[0]}${supportCodeAlphabet[25]}${supportCodeAlphabet[0]}${supportCodeAlphabet[1]}${supportCodeAlphabet[2]}${supportCodeAlphabet[3]}${supportCodeAlphabet[4]}${supportCodeAlphabet[5]}`);
  });

  it("is read back in any form", () => {
    expect(parseSupportCode(" k7qx-m4pa ")).toBe("K7QXM4PA");
    expect(parseSupportCode("K7QX M4PA")).toBe("K7QXM4PA");
    expect(parseSupportCode("K7QX-M4P0")).toBeNull();
    expect(parseSupportCode("2f1c7a0e-9a44-4a7e-9a1e-3c1f0c9d2b11")).toBeNull();
  });
});
