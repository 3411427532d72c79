/**
 * The columns of a token row no viewer sees: the watcher's bookkeeping (when to poll next, its
 * lease, when it last looked, when someone viewed it) and the two times every answer moves:
 * `last_answer_at` (the detail's version follows it coarsely, see getLiveTokenIfChanged in lib/live/token-detail.ts; whether
 * it is later than the last fault is what a viewer sees of it, see fingerprintEntry in lib/live/today-list.ts) and
 * `last_upstream_state_at` (kept only to order answers that arrive out of order).
 *
 * A change to any other column gives the row a new `shown_version` (ADR 0033): the database's
 * trigger keeps its own copy of this list (`token_requests_unshown_columns()` in migration
 * 0015), and lib/db/shown-version.integration.test.ts fails when the two differ.
 */
export const unshownTokenColumns: ReadonlySet<string> = new Set([
  "next_poll_at",
  "lease_owner",
  "lease_until",
  "poll_failures",
  "last_checked_at",
  "last_viewed_at",
  "last_answer_at",
  "last_upstream_state_at",
]);
