import "server-only";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/types";
import { env } from "@/lib/env";
import { recordRetryQueue } from "@/lib/tokens/record-retry";
import { listAttemptsWhoseTokenMayExist, type AttemptWhoseTokenMayExist } from "@/lib/tokens/stale-attempts";

/**
 * What an administrator needs to see of the running service (the Operations page, ADRs 0017
 * and 0024): the provider budget all instances share, the watcher's backlog and how late
 * its oldest due poll is, issuing attempts whose outcome is unknown, and what the service answered
 * over the last hour. Counts and times only: no customer data, no token of a customer.
 */

export type ProviderBudgetView = {
  callsInWindow: number;
  windowStartedAt: Date | null;
  /** Set while a 429 (or the budget) holds every instance back. */
  pausedUntil: Date | null;
  pauseReason: string | null;
  /** Since when due polls have been deferred for want of budget: the backlog's cause. */
  deferredSince: Date | null;
};

export type WatcherBacklogView = {
  /** Tokens the watcher still follows. */
  open: number;
  /** Of those, due for a poll now. */
  due: number;
  /** Due for more than OVERDUE_SECONDS and not under a lease: waiting for a slot or the budget. */
  overdue: number;
  /** Polls under way (all instances): tokens under a live lease. */
  leased: number;
  /** How late the oldest due, unleased poll is (0 when none is due). */
  lagMs: number;
  /** Open tokens whose last poll met a fault of the service. */
  inFault: number;
};

export type ServiceHourView = {
  issued: number;
  refused: number;
  failed: number;
  outcomeUnknown: number;
  /** Episodes of the status calls failing (the watcher's "service unreachable" events). */
  statusFaults: number;
  statusRecoveries: number;
};

export type OperationsOverview = {
  at: Date;
  budget: ProviderBudgetView;
  backlog: WatcherBacklogView;
  lastHour: ServiceHourView;
  /** Issuing attempts of the last 24 hours whose answer never came, and the oldest's time. */
  outcomeUnknown: { last24h: number; oldestAt: Date | null };
  /**
   * Attempts whose token may exist but is not recorded (ADR 0043): the oldest few, how many in
   * all, and the answers this instance holds in memory because the database refused them.
   */
  mayExist: { count: number; attempts: AttemptWhoseTokenMayExist[]; waitingInMemory: number };
};

export const OVERDUE_SECONDS = 10;

const toDate = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));
const toNumber = (value: unknown): number => Number(value ?? 0);

type Rows = { rows: Record<string, unknown>[] };

export async function readOperationsOverview(db: Database, options: { issueTimeoutMs?: number } = {}): Promise<OperationsOverview> {
  const run = async (query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as Rows).rows;

  const [budget] = await run(sql`
    SELECT calls_in_window, window_started_at, paused_until, pause_reason, deferred_since
    FROM upstream_call_budget WHERE id = 1`);

  const [backlog] = await run(sql`
    SELECT
      count(*) AS open,
      count(*) FILTER (WHERE next_poll_at <= now()) AS due,
      count(*) FILTER (WHERE next_poll_at <= now() - make_interval(secs => ${OVERDUE_SECONDS}) AND (lease_until IS NULL OR lease_until < now())) AS overdue,
      count(*) FILTER (WHERE lease_until >= now()) AS leased,
      coalesce(extract(epoch FROM now() - min(next_poll_at) FILTER (WHERE next_poll_at <= now() AND (lease_until IS NULL OR lease_until < now()))) * 1000, 0) AS lag_ms,
      count(*) FILTER (WHERE fault_since IS NOT NULL) AS in_fault
    FROM token_requests
    WHERE outcome = 'issued' AND finished_at IS NULL`);

  const [hour] = await run(sql`
    SELECT
      count(*) FILTER (WHERE type = 'issue.issued') AS issued,
      count(*) FILTER (WHERE type = 'issue.rejected') AS refused,
      count(*) FILTER (WHERE type = 'issue.failed_upstream') AS failed,
      count(*) FILTER (WHERE type = 'issue.outcome_unknown') AS outcome_unknown,
      count(*) FILTER (WHERE type = 'watch.service_unreachable') AS status_faults,
      count(*) FILTER (WHERE type = 'watch.service_recovered') AS status_recoveries
    FROM token_events
    WHERE at > now() - interval '1 hour'`);

  const [unknown] = await run(sql`
    SELECT count(*) AS last_24h, min(created_at) AS oldest_at
    FROM token_requests
    WHERE outcome = 'outcome_unknown' AND created_at > now() - interval '24 hours'`);

  const mayExist = await listAttemptsWhoseTokenMayExist(db, { now: new Date(), issueTimeoutMs: options.issueTimeoutMs ?? env().UPSTREAM_ISSUE_TIMEOUT_MS, limit: 20 });

  return {
    at: new Date(),
    budget: {
      callsInWindow: toNumber(budget?.calls_in_window),
      windowStartedAt: toDate(budget?.window_started_at),
      pausedUntil: toDate(budget?.paused_until),
      pauseReason: (budget?.pause_reason as string | null | undefined) ?? null,
      deferredSince: toDate(budget?.deferred_since),
    },
    backlog: {
      open: toNumber(backlog?.open),
      due: toNumber(backlog?.due),
      overdue: toNumber(backlog?.overdue),
      leased: toNumber(backlog?.leased),
      lagMs: Math.max(0, Math.round(toNumber(backlog?.lag_ms))),
      inFault: toNumber(backlog?.in_fault),
    },
    lastHour: {
      issued: toNumber(hour?.issued),
      refused: toNumber(hour?.refused),
      failed: toNumber(hour?.failed),
      outcomeUnknown: toNumber(hour?.outcome_unknown),
      statusFaults: toNumber(hour?.status_faults),
      statusRecoveries: toNumber(hour?.status_recoveries),
    },
    outcomeUnknown: { last24h: toNumber(unknown?.last_24h), oldestAt: toDate(unknown?.oldest_at) },
    mayExist: { ...mayExist, waitingInMemory: recordRetryQueue().size },
  };
}
