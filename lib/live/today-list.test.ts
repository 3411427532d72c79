import { describe, expect, it } from "vitest";
import { todayListStart } from "./today-list";

describe("where today's token list starts", () => {
  it("is midnight (Ghana time = UTC) once the day is an hour old", () => {
    expect(todayListStart(new Date("2026-11-25T14:30:00Z")).toISOString()).toBe("2026-11-25T00:00:00.000Z");
  });

  it("reaches an hour back across midnight, so the token issued at 23:58 stays on the list at 00:05", () => {
    const start = todayListStart(new Date("2026-11-25T00:05:00Z"));
    expect(start.toISOString()).toBe("2026-11-24T23:05:00.000Z");
    expect(new Date("2026-11-24T23:58:00Z") >= start).toBe(true);
  });
});
