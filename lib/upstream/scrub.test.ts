import { describe, expect, it } from "vitest";
import { scrubText } from "./scrub";

describe("scrubText", () => {
  it("cuts out every sensitive value, whatever its case", () => {
    expect(scrubText("passport g1234567 and G1234567 rejected", ["G1234567"])).toBe(
      "passport [redacted] and [redacted] rejected",
    );
  });

  it("masks Ghana Card numbers even when reformatted by the service", () => {
    expect(scrubText("GHA-123456789-0, gha 123456789 0, GHA1234567890", [])).toBe("[redacted], [redacted], [redacted]");
  });

  it("treats sensitive values as text, not as patterns", () => {
    expect(scrubText("key a+b.c/d= leaked, aXbYc/d= kept", ["a+b.c/d="])).toBe("key [redacted] leaked, aXbYc/d= kept");
  });

  it("leaves very short values alone and shortens long text", () => {
    expect(scrubText("1 of 1", ["1"])).toBe("1 of 1");
    expect(scrubText("x".repeat(400), [])).toHaveLength(301);
  });
});
