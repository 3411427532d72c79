import "server-only";
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/types";
import { authUsers, tokenRequests, type TokenRequest } from "@/lib/db/schema";
import { factsFromRow } from "./token-facts";
import { TOKEN_LIFETIME_MS } from "./lifetime";
import { deriveTokenState } from "./state";
import type { ActiveTokenState, ActiveTokenSummary } from "./dto";

/**
 * Tokens for the same ID number (by blind index) with no final result yet: an issued token within
 * its 15 minutes that has not succeeded, failed or been called invalid, or an issuing call still
 * running (it may give the customer a token any moment). A finished token never counts, nor does
 * an attempt whose answer never came: it is final, its page says so, and the teller was told to
 * issue a new token if nothing arrived.
 */
export async function findActiveTokensForCustomer(
  db: Database,
  idNumberIndex: string,
  now: Date,
  ownBranchId: string,
): Promise<ActiveTokenSummary[]> {
  const windowStart = new Date(now.getTime() - TOKEN_LIFETIME_MS);
  const rows = await db
    .select({ row: tokenRequests, issuedByName: authUsers.name })
    .from(tokenRequests)
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(
      and(
        eq(tokenRequests.idNumberIndex, idNumberIndex),
        or(
          // The stored facts that end a token, so the limit below counts open ones only; the
          // state derivation decides the rest.
          and(
            eq(tokenRequests.outcome, "issued"),
            gt(tokenRequests.expiresAt, now),
            isNull(tokenRequests.finishedAt),
            isNull(tokenRequests.resultStatus),
            // One "Invalid Token" does not end a token (ADR 0043): a closed one has finished_at.
          ),
          and(eq(tokenRequests.outcome, "pending"), gt(tokenRequests.createdAt, windowStart)),
        ),
      ),
    )
    .orderBy(desc(tokenRequests.createdAt))
    .limit(5);
  const checkedAt = now.toISOString();
  return rows.flatMap(({ row, issuedByName }): ActiveTokenSummary[] => {
    const state = activeStateOf(row, now);
    if (state === null) return [];
    if (row.branchId !== ownBranchId) return [{ isOwnBranch: false }];
    return [
      {
        isOwnBranch: true,
        tokenRequestId: row.id,
        kind: row.kind,
        idType: row.idType,
        state,
        createdAt: row.createdAt.toISOString(),
        issuedAt: row.issuedAt?.toISOString() ?? null,
        expiresAt: row.expiresAt?.toISOString() ?? null,
        checkedAt,
        issuedByName,
      },
    ];
  });
}

/** The open state of a token as lib/tokens/state.ts derives it; null once it has ended. */
function activeStateOf(row: TokenRequest, now: Date): ActiveTokenState | null {
  if (row.outcome === "pending") return "being_issued";
  const derived = deriveTokenState(factsFromRow(row), now);
  if (derived.isFinal) return null;
  if (derived.state === "waiting") return "waiting";
  if (derived.state === "in_progress") return "in_progress";
  return null;
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
  await recordAuditEvent(db, {
    action: "token.active_token_warning",
    actor: { userId: issuer.userId, username: issuer.username },
    branchId: issuer.branch.id,
    details: {
      ownBranchTokenIds: found.flatMap((token) => (token.isOwnBranch ? [token.tokenRequestId] : [])),
      ownBranchStates: found.flatMap((token) => (token.isOwnBranch ? [token.state] : [])),
      otherBranchTokens: found.filter((token) => !token.isOwnBranch).length,
    },
    requestId,
  });
  return found;
}
