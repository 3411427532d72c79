import { describe, expect, it } from "vitest";
import { PasskeyFailureCount } from "./failure-count";

describe("PasskeyFailureCount", () => {
  it("limits an address after its failures, until its window ends, and leaves others alone", () => {
    const count = new PasskeyFailureCount(3, 60_000);
    const start = new Date("2026-11-27T10:00:00Z");
    expect(count.countFailure("10.0.0.1", start)).toBe(false);
    expect(count.countFailure("10.0.0.1", start)).toBe(false);
    expect(count.limitOf("10.0.0.1", start).isLimited).toBe(false);
    expect(count.countFailure("10.0.0.1", start)).toBe(true);
    expect(count.limitOf("10.0.0.1", start)).toEqual({ isLimited: true, retryAt: new Date("2026-11-27T10:01:00Z") });
    expect(count.limitOf("10.0.0.2", start).isLimited).toBe(false);
    expect(count.limitOf("10.0.0.1", new Date("2026-11-27T10:01:00Z")).isLimited).toBe(false);
  });
});
