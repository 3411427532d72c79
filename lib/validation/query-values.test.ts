import { describe, expect, it } from "vitest";
import { containsNul, isoDaySchema, isoInstantSchema, pageNumberSchema, queryTextSchema } from "./query-values";

describe("query values", () => {
  it.each([
    ["2026-11-24", true],
    ["2000-01-01", true],
    ["2026-02-31", false],
    ["2026-13-01", false],
    ["0000-01-01", false],
    ["9999-12-31", false],
    ["2026-1-1", false],
    ["2026-11-24\u0000", false],
  ])("day %j valid: %s", (value, expected) => {
    expect(isoDaySchema.safeParse(value).success).toBe(expected);
  });

  it.each([
    ["2026-11-24T10:00:00Z", true],
    ["2000-01-01T00:00:00+00:00", true],
    ["2000-01-01T00:30:00+01:00", false],
    ["0000-01-01T00:00:00Z", false],
    ["9999-12-31T23:59:59-14:00", false],
    ["2100-12-31T23:59:59Z", true],
    ["2100-12-31T23:59:59-01:00", false],
    ["2026-11-24T10:00:00", false],
    ["2026-02-30T10:00:00Z", false],
  ])("instant %j valid: %s", (value, expected) => {
    expect(isoInstantSchema.safeParse(value).success).toBe(expected);
  });

  it("bounds page numbers", () => {
    expect(pageNumberSchema.safeParse("3").data).toBe(3);
    for (const bad of ["0", "-1", "1e20", "99999999999999999999", "1.5", "abc", "100001"]) {
      expect(pageNumberSchema.safeParse(bad).success).toBe(false);
    }
  });

  it("refuses control characters and overlong text", () => {
    const text = queryTextSchema(10);
    expect(text.safeParse(" abc ").data).toBe("abc");
    expect(text.safeParse("a\u0000b").success).toBe(false);
    expect(text.safeParse("a\nb").success).toBe(false);
    expect(text.safeParse("x".repeat(11)).success).toBe(false);
  });

  it("finds \\0 anywhere in a nested input, keys included", () => {
    expect(containsNul({ a: ["ok", { b: "x\u0000" }] })).toBe(true);
    expect(containsNul({ ["k\u0000"]: 1 })).toBe(true);
    expect(containsNul({ a: ["ok", { b: 1, c: null }] })).toBe(false);
  });
});
