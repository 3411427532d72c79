import { describe, expect, it } from "vitest";
import { sheetPrintedSchema, signOffSchema } from "./sign-off-schema";

const branchId = "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b";

describe("the day of a printed sheet and of a sign-off", () => {
  it.each(["9999-99-99", "2026-02-30", "2026-13-01", "1999-12-31", "2026-1-1", "2026-11-24\u0000"])("refuses %j", (day) => {
    expect(sheetPrintedSchema.safeParse({ branchId, day }).success).toBe(false);
    expect(signOffSchema.safeParse({ branchId, day, note: "" }).success).toBe(false);
  });

  it("takes a real calendar day", () => {
    expect(sheetPrintedSchema.parse({ branchId, day: "2026-11-24" })).toEqual({ branchId, day: "2026-11-24" });
    expect(sheetPrintedSchema.safeParse({ branchId: "not-a-branch", day: "2026-11-24" }).success).toBe(false);
  });
});
