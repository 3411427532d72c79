import "server-only";
import type { BranchScope } from "@/lib/auth/branch-scope";
import type { TokenRequest } from "@/lib/db/schema";
import { displayIdNumber, displayReference } from "@/lib/pii/erasure-note";
import { maskIdNumber } from "@/lib/pii";
import { deriveTokenState, tokenStateLabelFor, type FollowPolicy } from "@/lib/tokens/state";
import { idTypeLabels } from "@/lib/domain/id-types";
import { factsFromRow } from "@/lib/tokens/token-facts";
import { isShownAsToken, type ScopedTokenRow } from "@/lib/tokens/token-row";
import type { LiveTokenSummary } from "./dto";
import { describeLiveFault } from "./event-wording";

/**
 * The read side of the live token: DTOs for the poll routes and the pages, from the database only
 * (never the service). Every read is scoped to the viewer's branches; a token of another branch is
 * NOT_FOUND, exactly like one that does not exist. This module holds what the token's detail
 * (token-detail.ts) and today's list (today-list.ts) share: who views, with which settings, and
 * one token as a row of the list.
 */

export type LiveViewer = { userId: string; scope: BranchScope };
export type LiveViewSettings = {
  follow: FollowPolicy;
  /** An issuing call still `pending` after about this long never settled (its process ended). */
  issueTimeoutMs: number;
  /** An open token not heard about from the service for longer than this says so. */
  staleAfterMs: number;
};

/** What of a token's shown state time alone can change (its row and events staying the same). */
export function derivedVersion(row: TokenRequest, settings: LiveViewSettings, now: Date): string {
  const derived = deriveTokenState(factsFromRow(row), now, settings.follow);
  return [isShownAsToken(row, now, settings.issueTimeoutMs), derived.state, derived.isFinal, derived.serviceProblem?.code ?? "", derived.expiresAt?.getTime() ?? ""].join("|");
}

export function toSummary({ row, tellerName }: ScopedTokenRow, viewer: LiveViewer, settings: LiveViewSettings, now: Date): LiveTokenSummary {
  const derived = deriveTokenState(factsFromRow(row), now, settings.follow);
  return {
    id: row.id,
    token: row.outcome === "issued" ? row.token : null,
    kind: row.kind,
    idType: row.idType,
    idTypeLabel: idTypeLabels[row.idType],
    maskedIdNumber: displayIdNumber(row, maskIdNumber),
    reference: displayReference(row.referenceMasked, row) ?? "",
    state: derived.state,
    stateLabel: tokenStateLabelFor(derived.state, row.kind),
    isFinal: derived.isFinal,
    outcomeUnknownReason: derived.outcomeUnknownReason ?? null,
    serviceProblem: derived.serviceProblem
      ? { code: derived.serviceProblem.code, message: describeLiveFault(derived.serviceProblem.code), since: derived.serviceProblem.since.toISOString() }
      : null,
    createdAt: row.createdAt.toISOString(),
    issuedAt: row.issuedAt?.toISOString() ?? null,
    expiresAt: derived.expiresAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    tellerName,
    isMine: row.issuedByUserId === viewer.userId,
    result:
      row.resultStatus && row.transactionNumber
        ? { status: row.resultStatus, transactionNumber: row.transactionNumber, error: row.resultError }
        : null,
  };
}
