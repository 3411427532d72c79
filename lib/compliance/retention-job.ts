import "server-only";
import { and, asc, gt, isNull, lt, or, sql } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import type { Database } from "@/lib/db/types";
import { tokenRequests } from "@/lib/db/schema";
import type { Env } from "@/lib/env";
import { erasePart } from "./erasure";
import { oldestCreatedAtThatMayBeDue, retentionDecision, type RetentionFacts, type RetentionSettings } from "./retention-policy";

/**
 * The ONE retention job (ADR 0022): erases contact and identity data whose clock has run
 * out, skipping tokens under a legal hold, and writes one audit event per run with its counts.
 * Run by the app on a schedule (retention-schedule.ts) and by `npm run retention`.
 *
 * Several instances: the whole run is one transaction holding a transaction-level advisory lock;
 * an instance that cannot take it skips this round (another is running). Every erasing UPDATE also
 * re-checks "not erased yet, not held" under the row lock, so even without the lock no row is ever
 * erased twice. On PGlite (one process) transactions are serialised anyway.
 */

export const retentionLockKey = "veridesk:retention";
const batchSize = 1_000;

export type RetentionRunReport = {
  status: "ran" | "skipped";
  dryRun: boolean;
  at: string;
  /** Rows read because one of their clocks may have run out. */
  examined: number;
  contactErased: number;
  identityErased: number;
  /** Due rows left alone because of a legal hold. */
  heldSkipped: number;
  settings: RetentionSettings;
  durationMs: number;
};

export function retentionSettingsFrom(settings: Pick<Env, "RETENTION_CONTACT_DAYS" | "RETENTION_IDENTITY_YEARS">): RetentionSettings {
  return { contactDays: settings.RETENTION_CONTACT_DAYS, identityYears: settings.RETENTION_IDENTITY_YEARS };
}

export async function runRetentionJob(
  db: Database,
  options: { settings: RetentionSettings; now?: Date; dryRun?: boolean; trigger: "schedule" | "command" },
): Promise<RetentionRunReport> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const dryRun = options.dryRun ?? false;
  const report: RetentionRunReport = {
    status: "ran",
    dryRun,
    at: now.toISOString(),
    examined: 0,
    contactErased: 0,
    identityErased: 0,
    heldSkipped: 0,
    settings: options.settings,
    durationMs: 0,
  };
  await db.transaction(async (tx) => {
    const locked = (await tx.execute(sql`SELECT pg_try_advisory_xact_lock(hashtext(${retentionLockKey})) AS "locked"`)) as unknown as { rows: { locked: boolean }[] };
    if (!locked.rows[0]?.locked) {
      report.status = "skipped";
      return;
    }
    const cut = oldestCreatedAtThatMayBeDue(options.settings, now);
    let after = "00000000-0000-0000-0000-000000000000";
    for (;;) {
      const rows = await tx
        .select({
          id: tokenRequests.id,
          outcome: tokenRequests.outcome,
          createdAt: tokenRequests.createdAt,
          settledAt: tokenRequests.settledAt,
          expiresAt: tokenRequests.expiresAt,
          finishedAt: tokenRequests.finishedAt,
          legalHoldAt: tokenRequests.legalHoldAt,
          contactErasedAt: tokenRequests.contactErasedAt,
          identityErasedAt: tokenRequests.identityErasedAt,
        })
        .from(tokenRequests)
        .where(
          and(
            gt(tokenRequests.id, after),
            or(
              and(isNull(tokenRequests.contactErasedAt), lt(tokenRequests.createdAt, cut.contact)),
              and(isNull(tokenRequests.identityErasedAt), lt(tokenRequests.createdAt, cut.identity)),
            ),
          ),
        )
        .orderBy(asc(tokenRequests.id))
        .limit(batchSize);
      if (rows.length === 0) break;
      after = rows.at(-1)!.id;
      report.examined += rows.length;
      const identityIds: string[] = [];
      const contactIds: string[] = [];
      for (const row of rows) {
        const facts: RetentionFacts = row;
        const decision = retentionDecision(facts, options.settings, now);
        if (decision.isHeld) {
          const wouldBeDue = retentionDecision({ ...facts, legalHoldAt: null }, options.settings, now);
          if (wouldBeDue.eraseContact || wouldBeDue.eraseIdentity) report.heldSkipped += 1;
          continue;
        }
        if (decision.eraseIdentity) identityIds.push(row.id);
        if (decision.eraseContact) contactIds.push(row.id);
      }
      if (dryRun) {
        report.identityErased += identityIds.length;
        report.contactErased += contactIds.length;
      } else {
        report.identityErased += (await erasePart(tx, identityIds, "identity", "retention", now)).length;
        report.contactErased += (await erasePart(tx, contactIds, "contact", "retention", now)).length;
      }
      if (rows.length < batchSize) break;
    }
    report.durationMs = Math.round(performance.now() - started);
    if (!dryRun) await recordRetentionRun(tx, report, options.trigger);
  });
  report.durationMs = Math.round(performance.now() - started);
  return report;
}

async function recordRetentionRun(tx: DbExecutor, report: RetentionRunReport, trigger: "schedule" | "command"): Promise<void> {
  await recordAuditEvent(tx, {
    action: "retention.run",
    actor: null,
    actorLabel: "retention job",
    subject: { type: "retention", id: report.at },
    details: {
      trigger,
      examined: report.examined,
      contactErased: report.contactErased,
      identityErased: report.identityErased,
      heldSkipped: report.heldSkipped,
      contactDays: report.settings.contactDays,
      identityYears: report.settings.identityYears,
    },
  });
}
