import { describe, expect, it } from "vitest";
import { parseFiguresQuery, parseListQuery, parseReconciliationQuery, toSearchParams } from "./filters";

describe("review list query in the URL", () => {
  it("reads filters, sorting and page, and writes back only what differs from the defaults", () => {
    const { query, ignored } = parseListQuery(
      new URLSearchParams("state=failed&state=expired&kind=remote&idType=PASSPORT&purpose=Account+opening&from=2026-11-01&to=2026-11-20&reference=024&token=ab12&sort=state&dir=asc&page=3&size=100"),
    );
    expect(ignored).toEqual([]);
    expect(query).toEqual({
      state: ["failed", "expired"],
      kind: "remote",
      idType: "PASSPORT",
      purpose: "Account opening",
      from: "2026-11-01",
      to: "2026-11-20",
      reference: "024",
      token: "ab12",
      sort: "state",
      dir: "asc",
      page: 3,
      size: 100,
    });
    expect(parseListQuery(toSearchParams(query)).query).toEqual(query);
    expect(toSearchParams({ sort: "createdAt", dir: "desc", page: 1, size: 50 }).toString()).toBe("");
  });

  it("drops what does not fit and says so, never failing the page", () => {
    const { query, ignored } = parseListQuery({ state: ["failed", "bogus"], kind: "teleport", page: "-2", size: "7", branch: "not-a-uuid", from: "2026-13-45", purpose: "x\u0000y" });
    expect(query.state).toEqual(["failed"]);
    expect(query.kind).toBeUndefined();
    expect(query.page).toBe(1);
    expect(query.size).toBe(50);
    expect(ignored.sort()).toEqual(["branch", "from", "kind", "page", "purpose", "size", "state"]);
  });

  it("swaps a reversed date range", () => {
    expect(parseListQuery({ from: "2026-11-20", to: "2026-11-01" }).query).toMatchObject({ from: "2026-11-01", to: "2026-11-20" });
  });

  it("never carries an ID number, whatever the URL holds", () => {
    const { query } = parseListQuery({ idNumber: "GHA-123456789-0", id: "GHA-123456789-0" });
    expect(JSON.stringify(query)).not.toContain("123456789");
    expect(toSearchParams(query).toString()).not.toContain("123456789");
  });
});

describe("figures and reconciliation queries", () => {
  it("defaults figures to the last 7 days per branch and caps the range at a year", () => {
    expect(parseFiguresQuery({}, "2026-11-20")).toEqual({ from: "2026-11-14", to: "2026-11-20", groupBy: "branch" });
    expect(parseFiguresQuery({ from: "2020-01-01", to: "2026-11-20", groupBy: "day" }, "2026-11-20")).toMatchObject({ from: "2025-11-20", groupBy: "day" });
  });

  it("reconciles today by default and never a future day", () => {
    expect(parseReconciliationQuery({}, "2026-11-20")).toEqual({ day: "2026-11-20" });
    expect(parseReconciliationQuery({ day: "2027-01-01" }, "2026-11-20")).toEqual({ day: "2026-11-20" });
  });
});
