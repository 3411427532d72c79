import "server-only";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { assertInBranchScope, branchScopeCondition, type BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { authUsers, branches, tokenRequests, type TokenRequest } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { pendingLimitMs } from "./token-facts";

/** A token request row with the names a viewer sees beside it: its branch and its teller. */
export const summaryColumns = { row: tokenRequests, branchName: branches.name, tellerName: authUsers.name };
export type ScopedTokenRow = { row: TokenRequest; branchName: string; tellerName: string };

const uuidSchema = z.uuid();

/**
 * Rows that are tokens (or may be): issued ones, and calls whose outcome is unknown. A refused or
 * failed call never produced a token; a call still running is shown once it has settled.
 */
export function isShownAsToken(row: TokenRequest, now = new Date(), issueTimeoutMs = 30_000): boolean {
  if (row.outcome === "issued" || row.outcome === "outcome_unknown") return true;
  return row.outcome === "pending" && now.getTime() - row.createdAt.getTime() > pendingLimitMs(issueTimeoutMs);
}

/** The row of a token request in scope, joined with its branch and teller; NOT_FOUND otherwise. */
export async function readScopedTokenRequest(db: Database, scope: BranchScope, id: string): Promise<ScopedTokenRow> {
  if (!uuidSchema.safeParse(id).success) throw new AppError("NOT_FOUND", "token request id is not a uuid");
  const [found] = await db
    .select(summaryColumns)
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(and(eq(tokenRequests.id, id), branchScopeCondition(scope, tokenRequests.branchId)));
  if (!found || !isShownAsToken(found.row)) throw new AppError("NOT_FOUND", `token request ${id} not found in scope`);
  assertInBranchScope(scope, found.row.branchId, "token request");
  return found;
}
