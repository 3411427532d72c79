/**
 * The audit actions review records; their words for the audit page are in lib/audit/actions.ts.
 * Details never hold an ID number, only what was done and why.
 */
export const reviewAuditActions = {
  tokenViewed: "token.viewed_by_supervisor",
  idRevealed: "token.id_revealed",
  idSearched: "review.id_number_searched",
  exported: "review.exported",
  exportedFullIds: "review.exported_full_ids",
  auditExported: "audit.exported",
  reconciliationPrinted: "review.reconciliation_printed",
  reconciliationSignedOff: "review.reconciliation_signed_off",
} as const;
