import { describe, expect, it } from "vitest";
import { FIRST_LOAD_ALLOWANCES, FIRST_LOAD_GOAL_BYTES } from "../bundle-budget";
import { checkBudget } from "./bundle-budget";

describe("the first-load JS budget", () => {
  it("passes a build whose pages are all within the goal or their allowance", () => {
    const sizes = new Map([["/", 176_700], ["/tokens/new/remote", 238_000]]);
    expect(checkBudget(sizes, 180_000, { "/tokens/new/remote": 239_000 }).isWithin).toBe(true);
  });

  it("fails when a page passes the goal, naming it", () => {
    const verdict = checkBudget(new Map([["/", 180_001], ["/tokens", 150_000]]), 180_000);
    expect(verdict.isWithin).toBe(false);
    expect(verdict.over).toEqual([{ route: "/", bytes: 180_001, limit: 180_000 }]);
    expect(verdict.lines.find((line) => line.includes(" / "))).toMatch(/^✖/);
  });

  it("fails when a page with an allowance grows past it", () => {
    const verdict = checkBudget(new Map([["/review/figures", 283_500]]), 180_000, { "/review/figures": 283_000 });
    expect(verdict.over.map(({ route }) => route)).toEqual(["/review/figures"]);
  });

  it("fails when an allowance names a page the build no longer has", () => {
    const verdict = checkBudget(new Map([["/", 100_000]]), 180_000, { "/old-page": 200_000 });
    expect(verdict.isWithin).toBe(false);
    expect(verdict.lines[0]).toContain("/old-page");
  });

  it("gives no allowance to the pages a teller lives on: the dashboard, the token list, the token page and the two forms", () => {
    expect(FIRST_LOAD_GOAL_BYTES).toBe(180_000);
    for (const route of ["/", "/tokens", "/tokens/[id]", "/tokens/new/remote", "/tokens/new/fingerprint"]) expect(FIRST_LOAD_ALLOWANCES).not.toHaveProperty(route);
  });
});
