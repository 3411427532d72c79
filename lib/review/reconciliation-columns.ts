/**
 * The sheet's count columns, in order. Every request ends in exactly one of the seven states, so
 * each row's "Requests" is the sum of the other columns, and the branch total is the sum of the
 * rows — the sheet adds up across and down (checked by e2e/review-story.spec.ts).
 */
export const reconciliationStateColumns = [
  ["successful", "Successful"],
  ["failed", "Failed"],
  ["expired", "Expired"],
  ["invalid", "Invalid"],
  ["open", "Still open"],
  ["outcomeUnknown", "Outcome unknown"],
  ["notIssued", "Not issued"],
] as const;
