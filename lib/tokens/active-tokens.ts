import "server-only";
import { and, desc, eq, gt, inArray, or } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/client";
import { authUsers, tokenRequests } from "@/lib/db/schema";
import { TOKEN_LIFETIME_MS } from "./lifetime";

/**
 * A token of the same customer that may still be in use: shown before issuing another. Only a
 * token of the teller's own branch is described (and linked); of another branch's the teller
 * learns that one exists and nothing else — not who issued it nor where — since they may not
 * open it, and the names would tell a teller where any ID number is being served.
 */
export type ActiveTokenSummary =
  | {
      isOwnBranch: true;
      tokenRequestId: string;
      kind: "fingerprint" | "remote";
      idType: string;
      /** `issued`, or `pending` / `outcome_unknown` when the service may have issued one. */
      outcome: string;
      createdAt: string;
      expiresAt: string | null;
      issuedByName: string;
    }
  | { isOwnBranch: false };

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
      issuedByName: authUsers.name,
    })
    .from(tokenRequests)
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
  return rows.map((row) =>
    row.branchId === ownBranchId
      ? {
          isOwnBranch: true,
          tokenRequestId: row.tokenRequestId,
          kind: row.kind,
          idType: row.idType,
          outcome: row.outcome,
          createdAt: row.createdAt.toISOString(),
          expiresAt: row.expiresAt?.toISOString() ?? null,
          issuedByName: row.issuedByName,
        }
      : { isOwnBranch: false },
  );
}

/**
 * The active tokens to warn a teller about, with the warning itself audited (filed under the
 * teller's branch): which of their own branch's tokens they were shown, and how many elsewhere.
 * The other branches' token ids go into the trail only for head office, never to the teller.
 */
export async function warnOfActiveTokens(
  db: Database,
  idNumberIndex: string,
  now: Date,
  issuer: { userId: string; username: string; branch: { id: string } },
  requestId: string,
): Promise<ActiveTokenSummary[]> {
  const found = await findActiveTokensForCustomer(db, idNumberIndex, now, issuer.branch.id);
  if (found.length === 0) return found;
  await recordAuditEvent(
    {
      action: "token.active_token_warning",
      actor: { userId: issuer.userId, username: issuer.username },
      branchId: issuer.branch.id,
      details: {
        ownBranchTokenIds: found.flatMap((token) => (token.isOwnBranch ? [token.tokenRequestId] : [])),
        otherBranchTokens: found.filter((token) => !token.isOwnBranch).length,
      },
      requestId,
    },
    db,
  );
  return found;
}
