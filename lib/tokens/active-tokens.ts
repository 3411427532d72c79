import "server-only";
import { and, desc, eq, gt, inArray, or } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { authUsers, branches, tokenRequests } from "@/lib/db/schema";
import { TOKEN_LIFETIME_MS } from "./lifetime";

/** A token of the same customer that may still be in use: shown before issuing another. */
export type ActiveTokenSummary = {
  tokenRequestId: string;
  kind: "fingerprint" | "remote";
  idType: string;
  /** `issued`, or `pending` / `outcome_unknown` when the service may have issued one. */
  outcome: string;
  createdAt: string;
  expiresAt: string | null;
  issuedByName: string;
  branchName: string;
  /** Only tokens of the teller's own branch are linked: they may not open the others. */
  isOwnBranch: boolean;
};

/**
 * Tokens for the same ID number (by blind index) that are still active: issued and not yet
 * expired, or issued moments ago with an unknown outcome. Issue 6 narrows "active" further to
 * tokens without a final result once results are stored.
 */
export async function findActiveTokensForCustomer(
  db: Database,
  idNumberIndex: string,
  now: Date,
  ownBranchId: string,
): Promise<ActiveTokenSummary[]> {
  const windowStart = new Date(now.getTime() - TOKEN_LIFETIME_MS);
  const rows = await db
    .select({
      tokenRequestId: tokenRequests.id,
      kind: tokenRequests.kind,
      idType: tokenRequests.idType,
      outcome: tokenRequests.outcome,
      createdAt: tokenRequests.createdAt,
      expiresAt: tokenRequests.expiresAt,
      branchId: tokenRequests.branchId,
      branchName: branches.name,
      issuedByName: authUsers.name,
    })
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(
      and(
        eq(tokenRequests.idNumberIndex, idNumberIndex),
        or(
          and(eq(tokenRequests.outcome, "issued"), gt(tokenRequests.expiresAt, now)),
          and(inArray(tokenRequests.outcome, ["pending", "outcome_unknown"]), gt(tokenRequests.createdAt, windowStart)),
        ),
      ),
    )
    .orderBy(desc(tokenRequests.createdAt))
    .limit(5);
  return rows.map((row) => ({
    tokenRequestId: row.tokenRequestId,
    kind: row.kind,
    idType: row.idType,
    outcome: row.outcome,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    issuedByName: row.issuedByName,
    branchName: row.branchName,
    isOwnBranch: row.branchId === ownBranchId,
  }));
}
