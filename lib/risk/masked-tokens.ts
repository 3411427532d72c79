import "server-only";
import { branches, tokenRequests } from "@/lib/db/schema";
import { maskIdNumber } from "@/lib/pii/mask";

/**
 * How the risk pages show a token (a backtest's samples, a case's tokens): masked as everywhere
 * else in the review side, with the branch's name. One column set and one mapping, so the two pages
 * can never show a token differently (or one of them unmasked).
 */
export type MaskedToken = { id: string; createdAt: Date; kind: string; maskedIdNumber: string; phone: string | null; branchName: string; outcome: string };

/** The columns to select (joined with `branches` on the token's branch) for `toMaskedToken`. */
export const maskedTokenColumns = {
  id: tokenRequests.id,
  createdAt: tokenRequests.createdAt,
  kind: tokenRequests.kind,
  idType: tokenRequests.idType,
  last4: tokenRequests.idNumberLast4,
  phone: tokenRequests.phoneNumberMasked,
  branchName: branches.name,
  outcome: tokenRequests.outcome,
};

type MaskedTokenRow = { id: string; createdAt: Date; kind: string; idType: string; last4: string | null; phone: string | null; branchName: string; outcome: string };

export function toMaskedToken(row: MaskedTokenRow): MaskedToken {
  return {
    id: row.id,
    createdAt: row.createdAt,
    kind: row.kind,
    // An erased token keeps no digits to mask.
    maskedIdNumber: row.last4 ? maskIdNumber(row.idType, row.last4) : "(erased)",
    phone: row.phone,
    branchName: row.branchName,
    outcome: row.outcome,
  };
}
