import "server-only";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import { hasPermission } from "@/lib/auth/permissions";
import type { Database, DbExecutor } from "@/lib/db/types";
import { authUsers, riskRuleVersions, type RiskRuleVersion } from "@/lib/db/schema";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors";
import { isRuleKey, paramsOf, type RuleKey, type RuleMode, type RuleVersion, type Severity } from "./rules";

export function toRuleVersion(row: RiskRuleVersion): RuleVersion | null {
  if (!isRuleKey(row.ruleKey)) return null;
  return { id: row.id, ruleKey: row.ruleKey, version: row.version, params: row.params, severity: row.severity, mode: row.mode, activeFrom: row.approvedAt };
}

/** The versions in force, one per rule (pending, retired and rejected ones never run live). */
export async function loadActiveRules(db: DbExecutor): Promise<RuleVersion[]> {
  const found = await db.select().from(riskRuleVersions).where(eq(riskRuleVersions.status, "active")).orderBy(asc(riskRuleVersions.ruleKey));
  return found.map(toRuleVersion).filter((rule): rule is RuleVersion => rule !== null);
}

/** Versions by id, whatever their status: what a backtest of a pending version runs. */
export async function loadRuleVersions(db: DbExecutor, ids: readonly string[]): Promise<RuleVersion[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select()
    .from(riskRuleVersions)
    .where(and(inArray(riskRuleVersions.id, [...ids])))
    .orderBy(asc(riskRuleVersions.ruleKey), asc(riskRuleVersions.version));
  return found.map(toRuleVersion).filter((rule): rule is RuleVersion => rule !== null);
}

/** Rule changes, their backtests and figures are head office's: the risk permission over every branch. */
export function canManageRules(role: StaffRole): boolean {
  return hasPermission(role, "risk.cases") && hasPermission(role, "branches.all");
}

export type RuleVersionRow = RiskRuleVersion & { proposedBy: string | null; decidedBy: string | null };

/** Every version of every rule, newest first per rule, with who proposed and who decided it (for the rule pages). */
export async function listRuleVersions(db: DbExecutor, ruleKey?: RuleKey): Promise<RuleVersionRow[]> {
  const found = await db
    .select()
    .from(riskRuleVersions)
    .where(ruleKey ? eq(riskRuleVersions.ruleKey, ruleKey) : undefined)
    .orderBy(asc(riskRuleVersions.ruleKey), desc(riskRuleVersions.version));
  const userIds = [...new Set(found.flatMap((row) => [row.proposedByUserId, row.approvedByUserId]).filter((id): id is string => id !== null))];
  const users = userIds.length > 0 ? await db.select({ id: authUsers.id, username: authUsers.username }).from(authUsers).where(inArray(authUsers.id, userIds)) : [];
  const nameOf = (id: string | null) => (id === null ? null : (users.find((user) => user.id === id)?.username ?? id));
  return found.map((row) => ({ ...row, proposedBy: nameOf(row.proposedByUserId), decidedBy: nameOf(row.approvedByUserId) }));
}

export type RuleChange = { ruleKey: RuleKey; params: Record<string, unknown>; severity: Severity; mode: RuleMode; reason: string };
type Actor = { userId: string; username: string; role: StaffRole };

/**
 * A change to a rule is a new version, pending until a second person approves it (as role grants,
 * ADR 0020): head office proposes and approves; the proposer never approves their own. One
 * pending version per rule at a time. Audited, with no branch (a branch's trail shows no rule).
 */
export async function proposeRuleVersion(db: Database, actor: Actor, change: RuleChange): Promise<RiskRuleVersion> {
  if (!canManageRules(actor.role)) throw new AppError("FORBIDDEN", "rule changes are head office's");
  if (change.reason.trim().length < 5) throw new AppError("VALIDATION", "reason too short", { userMessage: "Say why the rule changes (a sentence)." });
  const alreadyPending = () => new AppError("CONFLICT", "a change is pending", { userMessage: "A change to this rule already waits for approval." });
  // Two proposals at the same moment: the lock below orders them, but the second's snapshot (read
  // committed) cannot see the first's new row, so it is stopped by the unique version number instead.
  return db.transaction(async (tx) => {
    const versions = await tx.select().from(riskRuleVersions).where(eq(riskRuleVersions.ruleKey, change.ruleKey)).orderBy(desc(riskRuleVersions.version)).for("update");
    if (versions.some((version) => version.status === "pending")) throw alreadyPending();
    const [created] = await tx
      .insert(riskRuleVersions)
      .values({
        ruleKey: change.ruleKey,
        version: (versions[0]?.version ?? 0) + 1,
        params: paramsOf({ ruleKey: change.ruleKey, params: change.params }) as Record<string, unknown>,
        severity: change.severity,
        mode: change.mode,
        status: "pending",
        proposedByUserId: actor.userId,
        reason: change.reason.trim(),
      })
      .returning();
    await recordAuditEvent(tx, { action: "risk.rule_proposed", actor: { userId: actor.userId, username: actor.username }, subject: { type: "risk_rule_version", id: created!.id }, details: { rule: change.ruleKey, version: created!.version, params: created!.params, mode: change.mode, severity: change.severity } });
    return created!;
  }).catch((error: unknown) => {
    if (isUniqueViolation(error)) throw alreadyPending();
    throw error;
  });
}

/** Approves a pending version: it becomes the active one from now on; the previous one retires. */
export async function decideRuleVersion(db: Database, actor: Actor, versionId: string, approve: boolean, now = new Date()): Promise<RiskRuleVersion> {
  if (!canManageRules(actor.role)) throw new AppError("FORBIDDEN", "rule changes are head office's");
  return db.transaction(async (tx) => {
    const [pending] = await tx.select().from(riskRuleVersions).where(and(eq(riskRuleVersions.id, versionId), eq(riskRuleVersions.status, "pending"))).for("update");
    if (!pending) throw new AppError("NOT_FOUND", `no pending rule version ${versionId}`);
    if (pending.proposedByUserId === actor.userId) throw new AppError("FORBIDDEN", "proposer cannot approve", { userMessage: "A second person must approve a rule change." });
    if (approve) {
      await tx.update(riskRuleVersions).set({ status: "retired", retiredAt: now }).where(and(eq(riskRuleVersions.ruleKey, pending.ruleKey), eq(riskRuleVersions.status, "active")));
    }
    const [decided] = await tx
      .update(riskRuleVersions)
      .set(approve ? { status: "active", approvedByUserId: actor.userId, approvedAt: now } : { status: "rejected", approvedByUserId: actor.userId, retiredAt: now })
      .where(eq(riskRuleVersions.id, versionId))
      .returning();
    await recordAuditEvent(tx, { action: approve ? "risk.rule_approved" : "risk.rule_rejected", actor: { userId: actor.userId, username: actor.username }, subject: { type: "risk_rule_version", id: versionId }, details: { rule: pending.ruleKey, version: pending.version } });
    return decided!;
  });
}
