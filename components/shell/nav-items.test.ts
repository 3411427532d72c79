import { describe, expect, it } from "vitest";
import { activeNavHref, navItemsFor } from "./nav-items";

describe("the shell's navigation", () => {
  it("shows each role only what it may use", () => {
    expect(navItemsFor("teller").map((item) => item.href)).toEqual(["/", "/tokens/new", "/tokens"]);
    expect(navItemsFor("supervisor").map((item) => item.href)).toEqual(["/", "/tokens", "/review", "/review/cases", "/admin/audit"]);
    expect(navItemsFor("head_office_supervisor").map((item) => item.href)).toEqual(["/", "/tokens", "/review", "/review/cases", "/admin/audit"]);
    expect(navItemsFor("admin").map((item) => item.href)).toEqual(["/", "/admin/staff", "/admin/branches", "/admin/purposes", "/admin/compliance", "/admin/audit", "/admin/api-keys", "/admin/webhooks", "/admin/operations"]);
  });

  it("marks the area of the current page", () => {
    const items = navItemsFor("admin");
    expect(activeNavHref("/", items)).toBe("/");
    expect(activeNavHref("/admin/staff/123", items)).toBe("/admin/staff");
    expect(activeNavHref("/admin/staffing", items)).toBeUndefined();
    const tellerItems = navItemsFor("teller");
    expect(activeNavHref("/tokens/new/remote", tellerItems)).toBe("/tokens/new");
    expect(activeNavHref("/tokens/0b7f5f36", tellerItems)).toBe("/tokens");
  });
});
