import "server-only";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import { riskAlerts, riskCases, riskCaseTokens } from "@/lib/db/schema";
import type { RuleHit } from "./evaluate";
import type { Severity } from "./rules";

/**
 * What the live evaluator does with hits (ADR 0046): one open alert per rule, subject and mode,
 * extended by new hits; a live alert joins its subject's open case (opened if none), and the case
 * holds the alert's tokens against erasure. A hit that brings nothing new changes nothing, so the
 * same window evaluated twice makes no second alert.
 *
 * The audit events name the case and the rule, never the subject, and belong to no branch: a
 * branch's audit trail (which its supervisor reads) must not tip anyone off.
 */

const severityRank: Record<Severity, number> = { low: 0, medium: 1, high: 2 };
const higher = (a: Severity, b: Severity): Severity => (severityRank[a] >= severityRank[b] ? a : b);
const openStates = ["open", "in_review", "escalated"] as const;
const system = { actor: null, actorLabel: "risk rules" } as const;

export type ApplyReport = { alertsOpened: number; alertsExtended: number; casesOpened: number };

export async function applyHits(tx: DbExecutor, hits: readonly RuleHit[], now: Date): Promise<ApplyReport> {
  const report: ApplyReport = { alertsOpened: 0, alertsExtended: 0, casesOpened: 0 };
  for (const hit of hits) {
    if (hit.rule.mode === "off") continue;
    const [existing] = await tx
      .select()
      .from(riskAlerts)
      .where(
        and(
          eq(riskAlerts.ruleKey, hit.rule.ruleKey),
          eq(riskAlerts.subjectType, hit.subjectType),
          eq(riskAlerts.subjectKey, hit.subjectKey),
          eq(riskAlerts.mode, hit.rule.mode),
          eq(riskAlerts.isOpen, true),
        ),
      )
      .for("update");
    if (!existing && (await alreadyDecided(tx, hit))) continue;
    let alertId: string;
    let caseId: string | null = existing?.caseId ?? null;
    if (existing) {
      const tokenIds = [...new Set([...existing.tokenIds, ...hit.tokenIds])].sort();
      const auditEventIds = [...new Set([...existing.auditEventIds, ...hit.auditEventIds])].sort((a, b) => a - b);
      if (tokenIds.length === existing.tokenIds.length && auditEventIds.length === existing.auditEventIds.length) continue;
      const counts = { ...existing.counts };
      for (const [name, value] of Object.entries(hit.counts)) counts[name] = Math.max(counts[name] ?? 0, value);
      await tx
        .update(riskAlerts)
        .set({ tokenIds, auditEventIds, counts, sentence: hit.sentence, lastHitAt: now, hits: existing.hits + 1, ruleVersionId: hit.rule.id, ruleVersion: hit.rule.version, params: hit.rule.params })
        .where(eq(riskAlerts.id, existing.id));
      alertId = existing.id;
      report.alertsExtended += 1;
    } else {
      const [created] = await tx
        .insert(riskAlerts)
        .values({
          ruleKey: hit.rule.ruleKey,
          ruleVersionId: hit.rule.id,
          ruleVersion: hit.rule.version,
          params: hit.rule.params,
          severity: hit.severity,
          mode: hit.rule.mode,
          subjectType: hit.subjectType,
          subjectKey: hit.subjectKey,
          tokenIds: hit.tokenIds,
          auditEventIds: hit.auditEventIds,
          counts: hit.counts,
          sentence: hit.sentence,
          firstHitAt: now,
          lastHitAt: now,
        })
        .returning({ id: riskAlerts.id });
      alertId = created!.id;
      report.alertsOpened += 1;
    }
    // Shadow versions are counted for tuning only: nothing reaches a queue.
    if (hit.rule.mode !== "live") continue;
    if (caseId === null) {
      const [open] = await tx
        .select()
        .from(riskCases)
        .where(and(eq(riskCases.subjectType, hit.subjectType), eq(riskCases.subjectKey, hit.subjectKey), inArray(riskCases.state, [...openStates])))
        .for("update");
      if (open) {
        caseId = open.id;
        if (higher(open.severity, hit.severity) !== open.severity) await tx.update(riskCases).set({ severity: hit.severity, updatedAt: now }).where(eq(riskCases.id, open.id));
      } else {
        const [created] = await tx
          .insert(riskCases)
          .values({
            subjectType: hit.subjectType,
            subjectKey: hit.subjectKey,
            subjectLabel: hit.subjectLabel,
            // A customer's case goes to the branch of their latest token; a staff member's to head office only.
            routeBranchId: hit.subjectType === "staff" ? null : hit.latestBranchId,
            subjectUserId: hit.subjectUserId,
            severity: hit.severity,
            openedAt: now,
            updatedAt: now,
          })
          .returning({ id: riskCases.id });
        caseId = created!.id;
        report.casesOpened += 1;
        await recordAuditEvent(tx, { ...system, action: "risk.case_opened", subject: { type: "risk_case", id: caseId }, details: { subjectType: hit.subjectType, severity: hit.severity } });
      }
      await tx.update(riskAlerts).set({ caseId }).where(eq(riskAlerts.id, alertId));
    }
    await holdTokens(tx, caseId, hit.tokenIds, now);
    await recordAuditEvent(tx, {
      ...system,
      action: existing ? "risk.alert_extended" : "risk.alert_raised",
      subject: { type: "risk_case", id: caseId },
      details: { alertId, rule: hit.rule.ruleKey, version: hit.rule.version, counts: hit.counts, tokens: hit.tokenIds.length },
    });
  }
  return report;
}

/**
 * Whether a closed alert on the same rule and subject already holds everything the hit matched:
 * the evaluator re-reads a margin of rows, and a decided case must not reopen on the same evidence.
 */
async function alreadyDecided(tx: DbExecutor, hit: RuleHit): Promise<boolean> {
  const [latest] = await tx
    .select({ tokenIds: riskAlerts.tokenIds, auditEventIds: riskAlerts.auditEventIds })
    .from(riskAlerts)
    .where(and(eq(riskAlerts.ruleKey, hit.rule.ruleKey), eq(riskAlerts.subjectType, hit.subjectType), eq(riskAlerts.subjectKey, hit.subjectKey), eq(riskAlerts.isOpen, false)))
    .orderBy(desc(riskAlerts.lastHitAt))
    .limit(1);
  if (!latest) return false;
  const tokens = new Set(latest.tokenIds);
  const events = new Set(latest.auditEventIds);
  return hit.tokenIds.every((id) => tokens.has(id)) && hit.auditEventIds.every((id) => events.has(id));
}

/** The case's evidence: retention and erasure skip these tokens until the case closes. */
export async function holdTokens(tx: DbExecutor, caseId: string, tokenIds: readonly string[], now: Date): Promise<void> {
  if (tokenIds.length === 0) return;
  await tx
    .insert(riskCaseTokens)
    .values(tokenIds.map((tokenRequestId) => ({ caseId, tokenRequestId, heldAt: now })))
    .onConflictDoNothing();
}

/** Closing a case releases its hold (tokens another open case holds stay held by that case's rows). */
export async function releaseTokens(tx: DbExecutor, caseId: string, now: Date): Promise<number> {
  const released = await tx
    .update(riskCaseTokens)
    .set({ releasedAt: now })
    .where(and(eq(riskCaseTokens.caseId, caseId), sql`${riskCaseTokens.releasedAt} is null`))
    .returning({ id: riskCaseTokens.tokenRequestId });
  return released.length;
}
