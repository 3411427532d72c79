import { describe, expect, it } from "vitest";
import { homeActionsFor } from "./home-actions";

describe("the home page's actions", () => {
  it("starts each role on its own work", () => {
    expect(homeActionsFor("teller").map((action) => action.href)).toEqual(["/tokens/new/fingerprint", "/tokens/new/remote", "/tokens"]);
    expect(homeActionsFor("supervisor").map((action) => action.href)).toEqual(["/review", "/admin/audit"]);
    expect(homeActionsFor("head_office_supervisor").map((action) => action.href)).toEqual(["/review", "/admin/audit"]);
    expect(homeActionsFor("admin").map((action) => action.href)).toEqual(["/admin/staff", "/admin/branches", "/admin/audit"]);
  });
});
