import "server-only";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { assertInBranchScope, branchScopeCondition, type BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { authUsers, branches, tokenRequests, type RemoteTokenOptions, type TokenRequest } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { displayContact, displayIdNumber, displayReference } from "@/lib/pii/erasure-note";
import { decryptField, maskEmail, maskIdNumber, type PiiKeys } from "@/lib/pii";
import { idTypeLabels, type IdType } from "@/lib/domain/id-types";
import { isErrorCode, userMessageForFailure } from "./issue-outcome";
import type { TokenKind } from "@/lib/domain/token-kinds";

/**
 * What pages and routes may know about a token request: masked identifiers, no ciphertexts, no
 * raw rows. Every read is scoped to the staff member's branches.
 */

export type TokenOutcomeView = "pending" | "issued" | "outcome_unknown" | "rejected" | "failed_upstream";

export type TokenRequestSummary = {
  id: string;
  kind: TokenKind;
  idType: IdType;
  idTypeLabel: string;
  maskedIdNumber: string;
  referenceId: string;
  outcome: TokenOutcomeView;
  token: string | null;
  createdAt: string;
  expiresAt: string | null;
  issuedByName: string;
  branchName: string;
};

export type TokenRequestView = TokenRequestSummary & {
  purpose: string | null;
  /** The branch name sent with a fingerprint token. */
  sentBranchName: string | null;
  issuedAt: string | null;
  /** The teller-facing explanation of a failed or unknown outcome. */
  failureMessage: string | null;
  errorCode: string | null;
  delivery: { smsTo: string | null; emailTo: string | null };
  options: RemoteTokenOptions | null;
};

const summaryColumns = {
  row: tokenRequests,
  branchName: branches.name,
  issuedByName: authUsers.name,
};

type SummaryRow = { row: TokenRequest; branchName: string; issuedByName: string };

/**
 * A `pending` row older than any call can take belongs to a call that never settled (the process
 * ended mid-call): show it as what it is, an unknown outcome.
 */
function effectiveOutcome(row: TokenRequest, now: Date): TokenOutcomeView {
  const pendingLimitMs = env().UPSTREAM_ISSUE_TIMEOUT_MS + 30_000;
  if (row.outcome === "pending" && now.getTime() - row.createdAt.getTime() > pendingLimitMs) return "outcome_unknown";
  return row.outcome;
}

function toSummary({ row, branchName, issuedByName }: SummaryRow, now: Date): TokenRequestSummary {
  return {
    id: row.id,
    kind: row.kind,
    idType: row.idType,
    idTypeLabel: idTypeLabels[row.idType],
    maskedIdNumber: displayIdNumber(row, maskIdNumber),
    referenceId: displayReference(row.referenceMasked, row) ?? "",
    outcome: effectiveOutcome(row, now),
    token: row.token,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    issuedByName,
    branchName,
  };
}

const uuidSchema = z.uuid();

/** One token request for its page; NOT_FOUND for an unknown id or another branch's request. */
export async function getTokenRequestView(
  scope: BranchScope,
  id: string,
  deps: { db: Database; keys?: PiiKeys },
): Promise<TokenRequestView> {
  if (!uuidSchema.safeParse(id).success) throw new AppError("NOT_FOUND", "token request id is not a uuid");
  const database = deps.db;
  const [found] = await database
    .select(summaryColumns)
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(and(eq(tokenRequests.id, id), branchScopeCondition(scope, tokenRequests.branchId)));
  if (!found) throw new AppError("NOT_FOUND", `token request ${id} not found in scope`);
  assertInBranchScope(scope, found.row.branchId, "token request");

  const { row } = found;
  const summary = toSummary(found, new Date());
  const email = row.emailEncrypted && row.isEmailSent && row.contactErasedAt === null ? decryptField(row.emailEncrypted, `token_requests.email:${row.id}`, deps.keys) : null;
  const failureMessage =
    summary.outcome === "issued" || summary.outcome === "pending"
      ? null
      : userMessageForFailure(isErrorCode(row.errorCode) ? row.errorCode : "UPSTREAM_TIMEOUT", summary.outcome);
  return {
    ...summary,
    purpose: row.purpose,
    sentBranchName: row.branchName,
    issuedAt: row.issuedAt?.toISOString() ?? null,
    failureMessage,
    errorCode: row.errorCode,
    delivery: {
      smsTo: displayContact(row.smsSentToMasked, row),
      emailTo: email ? maskEmail(email) : row.isEmailSent ? displayContact(null, row) : null,
    },
    options: row.options,
  };
}

