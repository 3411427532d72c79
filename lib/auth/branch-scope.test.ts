import { PgDialect, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { assertInBranchScope, branchScopeCondition, branchScopeFor, isInBranchScope, scopedBranchFilter } from "./branch-scope";
import type { StaffRole } from "@/lib/domain/staff-roles";

const ACCRA = "0b7f5f36-0000-4000-8000-00000000acc0";
const KUMASI = "0b7f5f36-0000-4000-8000-00000000c0a5";
const member = (role: StaffRole, branchId = ACCRA) => ({ role, branch: { id: branchId } });

describe("branchScopeFor", () => {
  it("binds tellers and branch supervisors to their own branch", () => {
    expect(branchScopeFor(member("teller"))).toEqual({ kind: "branch", branchId: ACCRA });
    expect(branchScopeFor(member("supervisor", KUMASI))).toEqual({ kind: "branch", branchId: KUMASI });
  });

  it("opens every branch to head office and administrators", () => {
    expect(branchScopeFor(member("head_office_supervisor"))).toEqual({ kind: "all" });
    expect(branchScopeFor(member("admin", KUMASI))).toEqual({ kind: "all" });
  });
});

describe("checking a record against a scope", () => {
  const tellerOfAccra = branchScopeFor(member("teller", ACCRA));

  it("accepts the own branch and refuses another, or none", () => {
    expect(isInBranchScope(tellerOfAccra, ACCRA)).toBe(true);
    expect(isInBranchScope(tellerOfAccra, KUMASI)).toBe(false);
    expect(isInBranchScope(tellerOfAccra, null)).toBe(false);
    expect(isInBranchScope({ kind: "all" }, KUMASI)).toBe(true);
  });

  it("refuses another branch's record as NOT_FOUND, so a guessed id reveals nothing", () => {
    expect(() => assertInBranchScope(tellerOfAccra, ACCRA)).not.toThrow();
    try {
      assertInBranchScope(tellerOfAccra, KUMASI, "token");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("NOT_FOUND");
    }
  });

  it("forces a branch-bound member's list filter to their branch", () => {
    expect(scopedBranchFilter(tellerOfAccra, KUMASI)).toBe(ACCRA);
    expect(scopedBranchFilter(tellerOfAccra, undefined)).toBe(ACCRA);
    expect(scopedBranchFilter({ kind: "all" }, KUMASI)).toBe(KUMASI);
    expect(scopedBranchFilter({ kind: "all" }, undefined)).toBeUndefined();
  });
});

describe("branchScopeCondition", () => {
  const records = pgTable("records", { id: text("id"), branchId: uuid("branch_id") });
  const dialect = new PgDialect();
  const render = (condition: ReturnType<typeof and>) => (condition ? dialect.sqlToQuery(condition) : undefined);

  it("adds the branch to the WHERE clause of a branch-bound query", () => {
    const query = render(and(eq(records.id, "t1"), branchScopeCondition({ kind: "branch", branchId: KUMASI }, records.branchId)));
    expect(query?.sql).toBe('("records"."id" = $1 and "records"."branch_id" = $2)');
    expect(query?.params).toEqual(["t1", KUMASI]);
  });

  it("adds nothing for an all-branches scope", () => {
    const query = render(and(eq(records.id, "t1"), branchScopeCondition({ kind: "all" }, records.branchId)));
    expect(query?.sql).toBe('"records"."id" = $1');
  });
});
