/**
 * What a check of the audit trail's hash chain found (ADR 0019). Types only, no server-only
 * import: the audit page's client component shows the report that lib/audit/chain.ts computes.
 */

export type ChainBreak = {
  /** The event where the chain stops holding (for a missing event: the one after the gap). */
  id: string;
  chainSeq: string;
  reason: "hash_mismatch" | "prev_hash_mismatch" | "sequence_gap";
  message: string;
};

export type ChainReport = {
  eventCount: number;
  /** The last event's hash: keep it outside the database to catch a rewrite of the whole tail. */
  headHash: string;
  headSeq: string | null;
  firstBreak: ChainBreak | null;
  durationMs: number;
};
