import "server-only";
import type { TokenRequest } from "@/lib/db/schema";
import type { IssuedTokenFacts, TokenFacts, UpstreamTokenState } from "@/lib/tokens/state";

/**
 * The token table's columns ↔ the facts `lib/tokens/state.ts` derives states from. The only place
 * that knows both shapes.
 */

/**
 * How long a `pending` issuing call may run before it counts as never answered (the process ended
 * mid-call); the same limit as lib/tokens/token-views.ts uses for the token list.
 */
export function pendingLimitMs(issueTimeoutMs: number): number {
  return issueTimeoutMs + 30_000;
}

export function factsFromRow(row: TokenRequest): TokenFacts {
  if (row.outcome !== "issued" || !row.issuedAt) {
    return { issuance: "unanswered", attemptedAt: row.createdAt };
  }
  return {
    issuance: "issued",
    issuedAt: row.issuedAt,
    lastState:
      row.lastUpstreamState && row.lastUpstreamStateAt
        ? { state: row.lastUpstreamState as UpstreamTokenState, at: row.lastUpstreamStateAt }
        : null,
    usedSeenAt: row.usedSeenAt,
    invalidSeenAt: row.invalidSeenAt,
    lastAnswerAt: row.lastAnswerAt,
    result:
      row.resultStatus && row.transactionNumber && row.resultAt
        ? { status: row.resultStatus, transactionNumber: row.transactionNumber, error: row.resultError, at: row.resultAt }
        : null,
    lastFault:
      row.lastFaultCode && row.lastFaultAt ? { code: row.lastFaultCode, at: row.lastFaultAt, since: row.faultSince ?? row.lastFaultAt } : null,
    closed: row.finishedAt && row.liveState ? { state: row.liveState, at: row.finishedAt } : null,
  };
}

export function factColumnsFrom(facts: IssuedTokenFacts) {
  return {
    lastUpstreamState: facts.lastState?.state ?? null,
    lastUpstreamStateAt: facts.lastState?.at ?? null,
    usedSeenAt: facts.usedSeenAt ?? null,
    invalidSeenAt: facts.invalidSeenAt ?? null,
    lastAnswerAt: facts.lastAnswerAt ?? null,
    resultStatus: facts.result?.status ?? null,
    transactionNumber: facts.result?.transactionNumber ?? null,
    resultError: facts.result?.error ?? null,
    resultAt: facts.result?.at ?? null,
    lastFaultCode: facts.lastFault?.code ?? null,
    lastFaultAt: facts.lastFault?.at ?? null,
    faultSince: facts.lastFault?.since ?? null,
  };
}
