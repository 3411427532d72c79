import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Database, DbExecutor } from "@/lib/db/types";
import { riskEvaluatorState } from "@/lib/db/schema";
import { applyHits, type ApplyReport } from "./alerts";
import { evaluateRules } from "./evaluate";
import { loadActiveRules } from "./rule-versions";
import { ruleAuditActions } from "./rules";

/**
 * The live evaluator (ADR 0046): behind issuing, never in it. Each pass takes the evaluator's one
 * state row with FOR UPDATE SKIP LOCKED (a second instance's pass finds it taken and does
 * nothing), reads what changed since its cursors — token rows by `shown_version`, audit events by
 * `chain_seq` — evaluates the active rules for those subjects only, applies the hits and moves
 * the cursors, all in one transaction: a crash leaves the cursors where they were.
 *
 * `shown_version` values are taken when a statement runs, not when it commits, so a row may commit
 * with a version below the cursor; each pass reads a margin of versions below it again. Evaluation
 * is idempotent (an alert grows only by tokens it lacks), so reading a row twice costs nothing.
 */

const versionMargin = 200;
/** Rows and events read per pass at most: a backlog is worked off over several passes, each short. */
const tokenBatch = 3_000;
const auditBatch = 5_000;

export type PassReport = ApplyReport & { ran: boolean; tokenRows: number; auditEvents: number; tokenCursor: number; auditCursor: number };

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(db: DbExecutor, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as Rows<T>).rows;

export async function evaluateChanges(db: Database, options: { owner: string; now?: () => Date }): Promise<PassReport> {
  const clock = options.now ?? (() => new Date());
  return db.transaction(async (tx) => {
    const [state] = await rowsOf<{ token_version_cursor: string | number; audit_seq_cursor: string | number; never_ran: boolean }>(
      tx,
      sql`select token_version_cursor, audit_seq_cursor, evaluated_at is null as never_ran from risk_evaluator_state where id = 1 for update skip locked`,
    );
    const idle: PassReport = { ran: false, tokenRows: 0, auditEvents: 0, tokenCursor: 0, auditCursor: 0, alertsOpened: 0, alertsExtended: 0, casesOpened: 0 };
    if (!state) return idle;
    const tokenCursor = Number(state.token_version_cursor);
    const auditCursor = Number(state.audit_seq_cursor);
    const [bounds] = await rowsOf<{ max_version: string | number | null; max_seq: string | number | null }>(
      tx,
      sql`select (select max(shown_version) from token_requests) as max_version, (select max(chain_seq) from audit_events) as max_seq`,
    );
    const maxVersion = Number(bounds?.max_version ?? 0);
    const maxSeq = Number(bounds?.max_seq ?? 0);
    const now = clock();
    // The first pass starts at what exists: history is the backtest's, not the live queue's.
    if (state.never_ran) {
      await tx.update(riskEvaluatorState).set({ tokenVersionCursor: maxVersion, auditSeqCursor: maxSeq, evaluatedAt: now, leaseOwner: options.owner }).where(eq(riskEvaluatorState.id, 1));
      return { ...idle, ran: true, tokenCursor: maxVersion, auditCursor: maxSeq };
    }
    const changed = await rowsOf<{ id_index: string | null; phone_index: string | null; issuer: string; created_ms: number; version: string | number }>(
      tx,
      sql`select id_number_index as id_index, phone_number_index as phone_index, issued_by_user_id as issuer, (extract(epoch from created_at) * 1000)::float8 as created_ms, shown_version as version
            from token_requests where shown_version > ${Math.max(0, tokenCursor - versionMargin)} and shown_version <= ${maxVersion}
           order by shown_version limit ${tokenBatch}`,
    );
    const tokenUpTo = changed.length === tokenBatch ? Number(changed.at(-1)!.version) : maxVersion;
    const events = await rowsOf<{ actor: string | null; at_ms: number; seq: string | number; counted: boolean }>(
      tx,
      sql`select actor_user_id as actor, (extract(epoch from at) * 1000)::float8 as at_ms, chain_seq as seq,
                 (actor_user_id is not null and action in (${sql.join(
                   ruleAuditActions.map((action) => sql`${action}`),
                   sql`, `,
                 )})) as counted
            from audit_events where chain_seq > ${auditCursor} and chain_seq <= ${maxSeq}
           order by chain_seq limit ${auditBatch}`,
    );
    const auditUpTo = events.length === auditBatch ? Number(events.at(-1)!.seq) : maxSeq;
    const counted = events.filter((event) => event.counted && event.actor !== null);
    let applied: ApplyReport = { alertsOpened: 0, alertsExtended: 0, casesOpened: 0 };
    const times = [...changed.map((row) => Number(row.created_ms)), ...counted.map((row) => Number(row.at_ms))];
    if (times.length > 0) {
      const idIndexes = [...new Set(changed.map((row) => row.id_index).filter((value): value is string => value !== null))];
      const phoneIndexes = [...new Set(changed.map((row) => row.phone_index).filter((value): value is string => value !== null))];
      // Staff subjects: who read ID numbers (rule 8) or attached an SMS token (rule 10), and who issued the changed tokens (rule 7).
      const userIds = [...new Set([...counted.map((row) => row.actor!), ...changed.map((row) => row.issuer)])];
      const rules = await loadActiveRules(tx);
      // Triggers are the changed rows themselves: from the oldest of them, to a minute past now
      // (a row's created_at is its writer's clock).
      const hits = await evaluateRules(tx, rules, {
        from: new Date(Math.min(...times)),
        to: new Date(Math.max(now.getTime(), ...times) + 60_000),
        subjects: { idIndexes, phoneIndexes, userIds },
        respectActiveFrom: true,
      });
      applied = await applyHits(tx, hits, now);
    }
    // A pass that found nothing new writes nothing.
    if (tokenUpTo <= tokenCursor && auditUpTo <= auditCursor) return { ...idle, ran: true, tokenCursor, auditCursor };
    await tx
      .update(riskEvaluatorState)
      .set({ tokenVersionCursor: Math.max(tokenCursor, tokenUpTo), auditSeqCursor: Math.max(auditCursor, auditUpTo), evaluatedAt: now, leaseOwner: options.owner, lastError: null })
      .where(eq(riskEvaluatorState.id, 1));
    return { ran: true, tokenRows: changed.length, auditEvents: counted.length, tokenCursor: Math.max(tokenCursor, tokenUpTo), auditCursor: Math.max(auditCursor, auditUpTo), ...applied };
  });
}

export type RiskLag = {
  /** Token row versions and audit events written since the last pass. */
  tokenVersionsBehind: number;
  auditEventsBehind: number;
  /** The oldest audit event not yet evaluated, or null when none (the token side has no write time). */
  oldestUnevaluatedAt: Date | null;
  evaluatedAt: Date | null;
  lastError: string | null;
};

/** The rules' lag, for the Operations page: counts and times only. */
export async function readRiskLag(db: DbExecutor): Promise<RiskLag> {
  const [row] = await rowsOf<{ behind_tokens: number; behind_audit: number; oldest_ms: number | null; evaluated_ms: number | null; last_error: string | null }>(
    db,
    sql`select greatest(0, coalesce((select max(shown_version) from token_requests), 0) - s.token_version_cursor)::float8 as behind_tokens,
               greatest(0, coalesce((select max(chain_seq) from audit_events), 0) - s.audit_seq_cursor)::float8 as behind_audit,
               (select (extract(epoch from min(at)) * 1000)::float8 from audit_events where chain_seq > s.audit_seq_cursor) as oldest_ms,
               (extract(epoch from s.evaluated_at) * 1000)::float8 as evaluated_ms, s.last_error
          from risk_evaluator_state s where s.id = 1`,
  );
  return {
    tokenVersionsBehind: Number(row?.behind_tokens ?? 0),
    auditEventsBehind: Number(row?.behind_audit ?? 0),
    oldestUnevaluatedAt: row?.oldest_ms == null ? null : new Date(Number(row.oldest_ms)),
    evaluatedAt: row?.evaluated_ms == null ? null : new Date(Number(row.evaluated_ms)),
    lastError: row?.last_error ?? null,
  };
}

/** Records a failed pass (its own statement: the pass's transaction rolled back). */
export async function recordEvaluatorError(db: DbExecutor, message: string): Promise<void> {
  await db.update(riskEvaluatorState).set({ lastError: message.slice(0, 500) }).where(eq(riskEvaluatorState.id, 1));
}
