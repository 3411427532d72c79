import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { branchScopeCondition, type BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { authUsers, branches, staffProfiles } from "@/lib/db/schema";

export type ReviewOption = { id: string; label: string; group?: string };

/** The branches a filter may offer: all of them for head office, none to choose for a branch. */
export async function listBranchOptions(db: Database): Promise<ReviewOption[]> {
  const rows = await db.select({ id: branches.id, name: branches.name }).from(branches).orderBy(asc(branches.name));
  return rows.map((row) => ({ id: row.id, label: row.name }));
}

/** Tellers within the scope, with their branch (head office sees every branch's). */
export async function listTellerOptions(db: Database, scope: BranchScope): Promise<ReviewOption[]> {
  const rows = await db
    .select({ id: authUsers.id, name: authUsers.name, branchName: branches.name })
    .from(staffProfiles)
    .innerJoin(authUsers, eq(authUsers.id, staffProfiles.userId))
    .innerJoin(branches, eq(branches.id, staffProfiles.branchId))
    .where(and(eq(staffProfiles.role, "teller"), branchScopeCondition(scope, staffProfiles.branchId)))
    .orderBy(asc(branches.name), asc(authUsers.name));
  return rows.map((row) => ({ id: row.id, label: row.name, ...(scope.kind === "all" ? { group: row.branchName } : {}) }));
}
