import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/types";
import type { ChainBreak, ChainReport } from "./chain-report";

export type { ChainBreak, ChainReport } from "./chain-report";

/**
 * Checks the audit trail's hash chain (ADR 0019) independently of the database: every hash is
 * recomputed here from the columns read as text, never with the database's own
 * `audit_event_hash`, which whoever tampered with the trail could have replaced. The encoding
 * must stay byte-for-byte the one of migration `audit-hash-chain`.
 */

export const GENESIS_HASH = "0".repeat(64);

/** One event as the verifier reads it: every hashed field as the text PostgreSQL prints. */
export type ChainLink = {
  id: string;
  chainSeq: string;
  /** `at` as epoch microseconds. */
  atMicros: string;
  actorUserId: string | null;
  actorLabel: string | null;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  branchId: string | null;
  /** jsonb's canonical text. */
  details: string;
  requestId: string | null;
  prevHash: string;
  hash: string;
};

const field = (value: string | null) => (value === null ? "-;" : `${Buffer.byteLength(value, "utf8")}:${value};`);

export function computeEventHash(link: Omit<ChainLink, "hash">): string {
  const text =
    `${link.prevHash}\n` +
    field(link.id) +
    field(link.chainSeq) +
    field(link.atMicros) +
    field(link.actorUserId) +
    field(link.actorLabel) +
    field(link.action) +
    field(link.subjectType) +
    field(link.subjectId) +
    field(link.branchId) +
    field(link.details) +
    field(link.requestId);
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Walks links in chain order and stops at the first that does not hold. Pure, so the rules are
 * unit-tested without a database; `verifyAuditChain` feeds it from one.
 */
export class ChainWalker {
  private count = 0;
  private previousHash = GENESIS_HASH;
  private previousSeq = 0n;
  private lastSeq: string | null = null;
  firstBreak: ChainBreak | null = null;

  /** Returns false once broken (the caller may stop reading). */
  accept(link: ChainLink): boolean {
    if (this.firstBreak) return false;
    this.count += 1;
    const expectedSeq = this.previousSeq + 1n;
    if (BigInt(link.chainSeq) !== expectedSeq) {
      this.firstBreak = {
        id: link.id,
        chainSeq: link.chainSeq,
        reason: "sequence_gap",
        message: `event ${link.id} has chain_seq ${link.chainSeq} where ${expectedSeq} was due: an event before it was removed`,
      };
      return false;
    }
    if (link.prevHash !== this.previousHash) {
      this.firstBreak = {
        id: link.id,
        chainSeq: link.chainSeq,
        reason: "prev_hash_mismatch",
        message: `event ${link.id} (chain_seq ${link.chainSeq}) does not point at the event before it`,
      };
      return false;
    }
    if (computeEventHash(link) !== link.hash) {
      this.firstBreak = {
        id: link.id,
        chainSeq: link.chainSeq,
        reason: "hash_mismatch",
        message: `event ${link.id} (chain_seq ${link.chainSeq}) was changed after it was recorded`,
      };
      return false;
    }
    this.previousHash = link.hash;
    this.previousSeq = expectedSeq;
    this.lastSeq = link.chainSeq;
    return true;
  }

  get eventCount() {
    return this.count;
  }
  get headHash() {
    return this.previousHash;
  }
  get headSeq() {
    return this.lastSeq;
  }
}

const PAGE_SIZE = 2000;

/** Reads the whole trail in chain order, a page at a time, and checks every link. */
export async function verifyAuditChain(db: Database): Promise<ChainReport> {
  const started = performance.now();
  const walker = new ChainWalker();
  let after = -1n;
  for (;;) {
    const page = await readLinks(db, after);
    for (const link of page) {
      if (!walker.accept(link)) break;
    }
    if (walker.firstBreak || page.length < PAGE_SIZE) break;
    after = BigInt(page[page.length - 1]!.chainSeq);
  }
  return {
    eventCount: walker.eventCount,
    headHash: walker.headHash,
    headSeq: walker.headSeq,
    firstBreak: walker.firstBreak,
    durationMs: Math.round(performance.now() - started),
  };
}

type LinkRow = {
  id: string;
  chain_seq: string;
  at_micros: string;
  actor_user_id: string | null;
  actor_label: string | null;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  branch_id: string | null;
  details: string;
  request_id: string | null;
  prev_hash: string;
  hash: string;
};

async function readLinks(db: Database, afterSeq: bigint): Promise<ChainLink[]> {
  // Every column cast to text here, so both drivers hand back the exact text that was hashed.
  const result = await db.execute(sql`
    SELECT id::text AS id, chain_seq::text AS chain_seq,
           ((extract(epoch FROM at) * 1000000)::bigint)::text AS at_micros,
           actor_user_id, actor_label, action, subject_type, subject_id,
           branch_id::text AS branch_id, details::text AS details, request_id, prev_hash, hash
      FROM audit_events
     WHERE audit_events.chain_seq > ${afterSeq.toString()}::bigint
     ORDER BY audit_events.chain_seq -- the column, not the text alias (10 < 9 as text)
     LIMIT ${PAGE_SIZE}`);
  // node-postgres answers a QueryResult, PGlite `{ rows }`: both carry `rows`.
  const rows = (result as unknown as { rows: LinkRow[] }).rows;
  return rows.map((row) => ({
    id: row.id,
    chainSeq: row.chain_seq,
    atMicros: row.at_micros,
    actorUserId: row.actor_user_id,
    actorLabel: row.actor_label,
    action: row.action,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    branchId: row.branch_id,
    details: row.details,
    requestId: row.request_id,
    prevHash: row.prev_hash,
    hash: row.hash,
  }));
}
