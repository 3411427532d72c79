import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
const { usedCodeDigest } = await import("./used-codes");

describe("the digest of a used code", () => {
  it("is keyed, per user and kind, and never the code itself", () => {
    const digest = usedCodeDigest("key-1", { userId: "u1", kind: "totp", code: "123456" });
    expect(digest).not.toContain("123456");
    expect(usedCodeDigest("key-1", { userId: "u1", kind: "totp", code: " 123456 " })).toBe(digest);
    expect(usedCodeDigest("key-2", { userId: "u1", kind: "totp", code: "123456" })).not.toBe(digest);
    expect(usedCodeDigest("key-1", { userId: "u2", kind: "totp", code: "123456" })).not.toBe(digest);
    expect(usedCodeDigest("key-1", { userId: "u1", kind: "backup_code", code: "123456" })).not.toBe(digest);
  });
});
