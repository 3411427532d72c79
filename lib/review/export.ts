import "server-only";
import { scopedBranchFilter, type BranchScope } from "@/lib/auth/branch-scope";
import type { Staff } from "@/lib/auth/types";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/types";
import { erasedText } from "@/lib/pii/erasure-note";
import { decryptField, type PiiKeys } from "@/lib/pii";
import { reviewAuditActions } from "./audit-actions";
import { csvPagedWebStream, csvResponse } from "./csv";
import { fullIdExportColumns, maskedExportColumns, type FullIdExportRow } from "./csv-columns";
import { readExportPages } from "./export-rows";
import { toSearchParams, type ReviewFilters } from "./filters";
import { bankDayOf } from "@/lib/bank-time";

/**
 * The token exports (ADRs 0011, 0013): the filtered list as CSV, streamed from keyset pages of
 * the database straight into the response, a page read only when the client has taken the one
 * before, so 200 000 rows cost the server about one page of memory. Each export is audited (who,
 * which filters, masked or full) before the first byte leaves.
 */

type ExportContext = { staff: Staff; scope: BranchScope; requestId: string };

/** The filters as applied: a branch-bound member's branch filter is their own branch, whatever they asked. */
function describeFilters(scope: BranchScope, filters: ReviewFilters): string {
  return toSearchParams({ ...filters, branch: scopedBranchFilter(scope, filters.branch) }).toString() || "(none)";
}

export async function exportMaskedTokens(db: Database, context: ExportContext, filters: ReviewFilters): Promise<Response> {
  await recordAuditEvent(db, {
    action: reviewAuditActions.exported,
    actor: { userId: context.staff.userId, username: context.staff.username },
    branchId: context.staff.branch.id,
    details: { filters: describeFilters(context.scope, filters), idNumbers: "masked" },
    requestId: context.requestId,
  });
  const pages = readExportPages(db, context.scope, filters);
  return csvResponse(csvPagedWebStream(maskedExportColumns, pages), `veridesk-tokens-${bankDayOf(new Date())}.csv`);
}

export async function exportFullIdTokens(db: Database, keys: PiiKeys, context: ExportContext, filters: ReviewFilters, reason: string): Promise<Response> {
  await recordAuditEvent(db, {
    action: reviewAuditActions.exportedFullIds,
    actor: { userId: context.staff.userId, username: context.staff.username },
    branchId: context.staff.branch.id,
    details: { filters: describeFilters(context.scope, filters), idNumbers: "full", reason },
    requestId: context.requestId,
  });
  async function* withFullNumbers(): AsyncGenerator<FullIdExportRow[]> {
    for await (const page of readExportPages(db, context.scope, filters, { withCiphertext: true, keys })) {
      yield page.map(({ idNumberEncrypted, ...row }) => ({
        ...row,
        fullIdNumber:
          idNumberEncrypted === null
            ? erasedText(row.identityErasedAtMs ?? 0, row.identityErasedUnder)
            : decryptField(idNumberEncrypted, `token_requests.id_number:${row.id}`, keys),
      }));
    }
  }
  return csvResponse(csvPagedWebStream(fullIdExportColumns, withFullNumbers()), `veridesk-tokens-FULL-IDS-${bankDayOf(new Date())}.csv`);
}
