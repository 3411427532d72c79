import { describe, expect, it } from "vitest";
import { MINIMUM_NODE_VERSION, unsupportedNodeMessage } from "./runtime";

describe("unsupportedNodeMessage", () => {
  it("refuses Node 20 and an older 24 with one sentence naming both versions", () => {
    for (const version of ["20.20.2", "22.12.0", "24.10.9"]) {
      const message = unsupportedNodeMessage(version);
      expect(message).toContain(version);
      expect(message).toContain(MINIMUM_NODE_VERSION);
      expect(message?.split(". ").length).toBe(1);
    }
  });

  it("accepts the minimum and anything newer", () => {
    for (const version of [MINIMUM_NODE_VERSION, "24.22.3", "26.1.0", "100.0.0"]) expect(unsupportedNodeMessage(version)).toBeNull();
  });

  it("compares numerically, not as text", () => {
    expect(unsupportedNodeMessage("24.9.0")).not.toBeNull();
    expect(unsupportedNodeMessage("24.100.0")).toBeNull();
  });
});
