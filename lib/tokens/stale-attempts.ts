import "server-only";
import { and, asc, eq, gt, isNotNull, isNull, lt, or, type SQL } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/types";
import { wasLinkSent } from "@/lib/domain/token-kinds";
import { branches, tokenEvents, tokenRequests } from "@/lib/db/schema";
import type { ErrorCode } from "@/lib/errors";
import { metrics } from "@/lib/metrics";
import { TOKEN_LIFETIME_MS } from "./lifetime";
import { pendingLimitMs } from "./token-facts";

/**
 * An issuing attempt still `pending` long after any call could have ended has lost its answer:
 * the process died mid-call, or the database refused the answer and the process holding it
 * (lib/tokens/record-retry.ts) ended too. The service may have issued its token and sent the SMS,
 * so the attempt becomes "outcome unknown" — by itself, without waiting for someone to submit the
 * same form again — and the supervisor's "enter the token from the customer's SMS" can take it.
 * A late answer still lands: the retry's write accepts an attempt in this state.
 *
 * Its error code is ISSUE_OUTCOME_UNKNOWN, not a timeout: nobody saw the service fail to answer,
 * only the record of its answer is missing. Each sweep that marks attempts writes one audit event
 * per branch (what ran, how many, which), in the same transaction as the marking.
 */

export const STALE_SWEEP_ACTOR = "stale-attempt sweep";

export const STALE_SWEEP_INTERVAL_MS = 10_000;
/**
 * The sweep's pace when no attempt recorded in this process (nor one left from before it started)
 * can still go stale (ADR 0047): attempts of another instance that died are marked within this
 * after their limit, and the gauge of attempts whose token may exist is this old at most.
 */
export const STALE_SWEEP_IDLE_INTERVAL_MS = 60_000;

export async function settleStalePendingAttempts(db: Database, input: { now: Date; issueTimeoutMs: number }): Promise<string[]> {
  const limit = new Date(input.now.getTime() - pendingLimitMs(input.issueTimeoutMs));
  return markOutcomeUnknown(db, input.now, lt(tokenRequests.createdAt, limit));
}

/**
 * Marks the still-pending attempts `which` selects as "outcome unknown", each with its event, and
 * one audit event per branch, in one transaction: the sweep's way, and the way of a submit that
 * finds its own earlier attempt stuck (lib/tokens/issue-token.ts), so both leave the same record.
 */
export async function markOutcomeUnknown(db: Database, now: Date, which: SQL): Promise<string[]> {
  return db.transaction(async (tx) => {
    const marked = await tx
      .update(tokenRequests)
      .set({
        outcome: "outcome_unknown",
        errorCode: "ISSUE_OUTCOME_UNKNOWN" satisfies ErrorCode,
        errorDetail: "no answer was recorded within the issuing timeout (the process ended, or the database refused the answer)",
        settledAt: now,
      })
      .where(and(eq(tokenRequests.outcome, "pending"), which))
      .returning({ id: tokenRequests.id, branchId: tokenRequests.branchId, createdAt: tokenRequests.createdAt });
    if (marked.length === 0) return [];
    marked.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    await tx.insert(tokenEvents).values(
      marked.map(({ id }) => ({ tokenRequestId: id, at: now, type: "issue.outcome_unknown", details: { reason: "no answer recorded in time", errorCode: "ISSUE_OUTCOME_UNKNOWN" } })),
    );
    const byBranch = new Map<string, string[]>();
    for (const { id, branchId } of marked) byBranch.set(branchId, [...(byBranch.get(branchId) ?? []), id]);
    for (const [branchId, ids] of byBranch) {
      await recordAuditEvent(tx, {
        action: "token.outcome_unknown_swept",
        actor: null,
        actorLabel: STALE_SWEEP_ACTOR,
        // One attempt: its page is the subject; several: the sweep's moment names the event.
        subject: ids.length === 1 ? { type: "token_request", id: ids[0]! } : { type: "stale_attempt_sweep", id: now.toISOString() },
        branchId,
        details: { count: ids.length, tokenRequestIds: ids, errorCode: "ISSUE_OUTCOME_UNKNOWN" },
      });
    }
    return marked.map(({ id }) => id);
  });
}

export type AttemptWhoseTokenMayExist = {
  id: string;
  createdAt: Date;
  kind: "fingerprint" | "remote";
  branchName: string | null;
  /** `pending`: no answer recorded yet (the sweep marks it soon); `outcome_unknown`: the SMS path can take it. */
  outcome: "pending" | "outcome_unknown";
  /** Until then a token of this attempt can still be alive, so its SMS can still be entered; null when it sent no SMS or e-mail (a fingerprint token). */
  smsEntryUntil: Date | null;
};

/**
 * Attempts whose token may exist but is not recorded (the Operations page, the gauge): `pending`
 * past the issuing limit, and "outcome unknown" without a token while any token of theirs can
 * still be alive (the SMS path's own limit, lib/tokens/attach-sms-token.ts). No customer datum.
 */
export async function listAttemptsWhoseTokenMayExist(db: Database, input: { now: Date; issueTimeoutMs: number; limit?: number }): Promise<{ count: number; attempts: AttemptWhoseTokenMayExist[] }> {
  const stalePending = new Date(input.now.getTime() - pendingLimitMs(input.issueTimeoutMs));
  const stillAlive = new Date(input.now.getTime() - input.issueTimeoutMs - TOKEN_LIFETIME_MS);
  const where = or(
    and(eq(tokenRequests.outcome, "pending"), lt(tokenRequests.createdAt, stalePending)),
    and(eq(tokenRequests.outcome, "outcome_unknown"), isNull(tokenRequests.token), gt(tokenRequests.createdAt, stillAlive)),
  );
  const rows = await db
    .select({
      id: tokenRequests.id,
      createdAt: tokenRequests.createdAt,
      kind: tokenRequests.kind,
      branchName: branches.name,
      outcome: tokenRequests.outcome,
      options: tokenRequests.options,
      hasEmail: isNotNull(tokenRequests.emailEncrypted),
    })
    .from(tokenRequests)
    .leftJoin(branches, eq(branches.id, tokenRequests.branchId))
    .where(where)
    .orderBy(asc(tokenRequests.createdAt));
  const attempts = rows.slice(0, input.limit ?? 20).map(({ options, hasEmail, ...row }) => ({
    ...row,
    outcome: row.outcome as AttemptWhoseTokenMayExist["outcome"],
    // The same rule as the SMS path's: only a remote token that sent a link can be read off a phone.
    smsEntryUntil: wasLinkSent({ kind: row.kind, sendSms: options?.sendSms, hasEmail: Boolean(hasEmail) }) ? new Date(row.createdAt.getTime() + input.issueTimeoutMs + TOKEN_LIFETIME_MS) : null,
  }));
  return { count: rows.length, attempts };
}

/**
 * Runs the sweep until stopped; a failed sweep is logged and tried again. Every `intervalMs` while
 * an attempt recorded in this process could still go stale (`attemptRecorded()` says one was; at
 * start, attempts left by the previous run count), every `idleIntervalMs` otherwise.
 */
export function startStaleAttemptSweep(input: {
  db: Database;
  issueTimeoutMs: number;
  log: { info: (object: object, message: string) => void; warn: (object: object, message: string) => void };
  intervalMs?: number;
  idleIntervalMs?: number;
}): { stop: () => void; attemptRecorded: () => void } {
  const intervalMs = input.intervalMs ?? STALE_SWEEP_INTERVAL_MS;
  const idleIntervalMs = Math.max(intervalMs, input.idleIntervalMs ?? STALE_SWEEP_IDLE_INTERVAL_MS);
  // Until then an attempt we know of can go stale: the sweep keeps its short pace.
  const busyFor = () => Date.now() + pendingLimitMs(input.issueTimeoutMs) + intervalMs;
  let busyUntil = busyFor();
  let timer: NodeJS.Timeout | undefined;
  let timerDueAt = Number.POSITIVE_INFINITY;
  let isStopped = false;
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const marked = await settleStalePendingAttempts(input.db, { now: new Date(), issueTimeoutMs: input.issueTimeoutMs });
      if (marked.length > 0) input.log.info({ tokenRequestIds: marked }, "issuing attempts without a recorded answer marked outcome unknown");
      const { count } = await listAttemptsWhoseTokenMayExist(input.db, { now: new Date(), issueTimeoutMs: input.issueTimeoutMs, limit: 0 });
      metrics().tokensMayExistUnrecorded.set(count);
    } catch (error) {
      input.log.warn({ err: error }, "could not mark stale issuing attempts; trying again");
    } finally {
      running = false;
    }
  };
  const schedule = (delayMs: number) => {
    if (isStopped) return;
    const dueAt = Date.now() + delayMs;
    if (timer && timerDueAt <= dueAt) return;
    if (timer) clearTimeout(timer);
    timerDueAt = dueAt;
    timer = setTimeout(() => {
      timer = undefined;
      timerDueAt = Number.POSITIVE_INFINITY;
      void sweep().finally(() => schedule(Date.now() < busyUntil ? intervalMs : idleIntervalMs));
    }, delayMs);
    timer.unref?.();
  };
  void sweep().finally(() => schedule(intervalMs));
  return {
    stop: () => {
      isStopped = true;
      if (timer) clearTimeout(timer);
    },
    attemptRecorded: () => {
      busyUntil = busyFor();
      schedule(intervalMs);
    },
  };
}
