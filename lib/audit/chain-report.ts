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

/**
 * What a person is shown and what the trail records of a check: no count and, while the chain
 * holds, no sequence number. Whoever verifies reads a routed trail (a row about a risk case only
 * if the case is routed to them, ADR 0050); the whole trail's count beside their own would tell a
 * case's subject that rows about them exist.
 */
export type ChainCheckReport = Omit<ChainReport, "eventCount" | "headSeq"> & { headSeq: string | null };

export function toChainCheckReport(report: ChainReport): ChainCheckReport {
  const { eventCount: _count, headSeq, ...rest } = report;
  return { ...rest, headSeq: report.firstBreak ? headSeq : null };
}
