import "server-only";
import type { BranchScope } from "@/lib/auth/branch-scope";
import type { Staff } from "@/lib/auth/types";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { computeIdNumberIndex, type PiiKeys } from "@/lib/pii";
import { normaliseGhanaCardNumber } from "@/lib/validation/ghana-card";
import { reviewAuditActions } from "./audit-actions";
import type { idNumberSearchSchema } from "./id-search-schema";
import { listTokensByIdNumberIndex, type ReviewTokenRow } from "./token-list";
import type { z } from "zod";

const resultLimit = 100;

/** A typed ID number as the issuing form stores it (a Ghana Card typed any way → GHA-XXXXXXXXX-X). */
export function normaliseSearchedIdNumber(input: z.output<typeof idNumberSearchSchema>): string {
  if (input.idType !== "GHANA_CARD") return input.idNumber;
  const normalised = normaliseGhanaCardNumber(input.idNumber);
  if (!normalised.ok) throw new AppError("VALIDATION", "ghana card number not recognised", { fieldErrors: { idNumber: [normalised.message] } });
  return normalised.value;
}

/**
 * The blind index of a typed ID number, normalised as the issuing form does. Also used by the
 * customer's record of verifications (lib/review/customer-record.ts): one exact search.
 */
export function blindIndexOfSearchedIdNumber(input: z.output<typeof idNumberSearchSchema>, keys: PiiKeys): string {
  return computeIdNumberIndex(normaliseSearchedIdNumber(input), keys);
}

/**
 * Exact search by ID number: normalise as the issuing form does (a Ghana Card typed any way
 * becomes GHA-XXXXXXXXX-X), take the keyed blind index, match it. The number itself is dropped
 * here: it is not logged, not audited (the audit says a search was made and how many matched)
 * and not returned.
 */
export async function searchTokensByIdNumber(
  db: Database,
  keys: PiiKeys,
  context: { staff: Staff; scope: BranchScope; requestId: string },
  input: z.output<typeof idNumberSearchSchema>,
): Promise<{ rows: ReviewTokenRow[]; isTruncated: boolean }> {
  const rows = await listTokensByIdNumberIndex(db, context.scope, blindIndexOfSearchedIdNumber(input, keys), resultLimit + 1);
  await recordAuditEvent(db, {
    action: reviewAuditActions.idSearched,
    actor: { userId: context.staff.userId, username: context.staff.username },
    branchId: context.staff.branch.id,
    details: { idType: input.idType, matches: Math.min(rows.length, resultLimit) },
    requestId: context.requestId,
  });
  return { rows: rows.slice(0, resultLimit), isTruncated: rows.length > resultLimit };
}
