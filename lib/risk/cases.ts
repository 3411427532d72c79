import "server-only";
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import { hasPermission } from "@/lib/auth/permissions";
import { canSeeCases, caseRoutingCondition, type CaseViewer } from "@/lib/compliance/case-routing";
import type { DbExecutor } from "@/lib/db/types";
import { authUsers, branches, riskAlerts, riskCaseNotes, riskCases, riskCaseTokens, tokenRequests, type RiskAlert, type RiskCase, type RiskCaseNote } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { releaseTokens } from "./alerts";
import { maskedTokenColumns, toMaskedToken, type MaskedToken } from "./masked-tokens";

/**
 * Risk cases (ADR 0046): lists, the case page, notes and decisions. Who may see a case is one rule,
 * `caseRoutingCondition` in lib/compliance/case-routing.ts, a WHERE condition every read here goes
 * through — and the audit trail, the rule figures and the backtest go through the same rule, so no
 * page, count or route can show a case, or a row about one, to someone it is not routed to. A case
 * outside the viewer's routing reads as NOT_FOUND, like a token of another branch.
 */

export { canSeeCases, caseRoutingCondition, type CaseViewer };

export const openCaseStates = ["open", "in_review", "escalated"] as const;
const closedStates = ["cleared", "reported", "not_reported"] as const;
/** The AML reporting clock: a suspicious transaction report within 24 hours of forming the suspicion. */
export const reportingClockMs = 24 * 3_600_000;

function isHeadOffice(viewer: Pick<CaseViewer, "role">): boolean {
  return hasPermission(viewer.role, "branches.all");
}

export type CaseListRow = RiskCase & { alerts: number; sentence: string | null; branchName: string | null };

export async function listCases(db: DbExecutor, viewer: CaseViewer, filter: { open?: boolean } = {}): Promise<CaseListRow[]> {
  if (!canSeeCases(viewer)) return [];
  const states = filter.open === false ? [...closedStates] : filter.open === true ? [...openCaseStates] : undefined;
  const found = await db
    .select({
      case: riskCases,
      branchName: branches.name,
      alerts: sql<number>`(select count(*)::int from ${riskAlerts} where ${riskAlerts.caseId} = ${riskCases.id})`,
      sentence: sql<string | null>`(select ${riskAlerts.sentence} from ${riskAlerts} where ${riskAlerts.caseId} = ${riskCases.id} order by ${riskAlerts.lastHitAt} desc limit 1)`,
    })
    .from(riskCases)
    .leftJoin(branches, eq(branches.id, riskCases.routeBranchId))
    .where(and(caseRoutingCondition(viewer), states ? inArray(riskCases.state, states) : undefined))
    .orderBy(desc(riskCases.openedAt))
    .limit(200);
  return found.map((row) => ({ ...row.case, alerts: Number(row.alerts), sentence: row.sentence, branchName: row.branchName }));
}

/** How many open cases the viewer has: 0 for anyone who may not see cases (no count ever tips off). */
export async function countOpenCases(db: DbExecutor, viewer: CaseViewer): Promise<number> {
  if (!canSeeCases(viewer)) return 0;
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(riskCases)
    .where(and(caseRoutingCondition(viewer), inArray(riskCases.state, [...openCaseStates])));
  return Number(row?.total ?? 0);
}

export type CaseTokenRow = MaskedToken & { heldUntilClosed: boolean };

export type CaseDetail = {
  riskCase: RiskCase;
  branchName: string | null;
  alerts: RiskAlert[];
  notes: RiskCaseNote[];
  tokens: CaseTokenRow[];
  names: Record<string, string>;
  /** When the 24-hour reporting clock runs out (escalated cases). */
  reportDueAt: Date | null;
};

async function visibleCase(db: DbExecutor, viewer: CaseViewer, caseId: string, lock = false): Promise<RiskCase> {
  if (!/^[0-9a-f-]{36}$/i.test(caseId)) throw new AppError("NOT_FOUND", "no such case");
  const query = db
    .select()
    .from(riskCases)
    .where(and(eq(riskCases.id, caseId), caseRoutingCondition(viewer)));
  const [found] = lock ? await query.for("update") : await query;
  if (!found) throw new AppError("NOT_FOUND", `case ${caseId} is not routed to ${viewer.username}`);
  return found;
}

export async function getCase(db: DbExecutor, viewer: CaseViewer, caseId: string): Promise<CaseDetail> {
  const riskCase = await visibleCase(db, viewer, caseId);
  const alerts = await db.select().from(riskAlerts).where(eq(riskAlerts.caseId, caseId)).orderBy(asc(riskAlerts.firstHitAt));
  const notes = await db.select().from(riskCaseNotes).where(eq(riskCaseNotes.caseId, caseId)).orderBy(asc(riskCaseNotes.at), asc(riskCaseNotes.id));
  const tokenRows = await db
    .select({ ...maskedTokenColumns, releasedAt: riskCaseTokens.releasedAt })
    .from(riskCaseTokens)
    .innerJoin(tokenRequests, eq(tokenRequests.id, riskCaseTokens.tokenRequestId))
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .where(eq(riskCaseTokens.caseId, caseId))
    .orderBy(asc(tokenRequests.createdAt));
  const [branch] = riskCase.routeBranchId ? await db.select({ name: branches.name }).from(branches).where(eq(branches.id, riskCase.routeBranchId)) : [];
  const userIds = [riskCase.assigneeUserId, riskCase.decidedByUserId, riskCase.closeProposedByUserId].filter((id): id is string => id !== null);
  const users = userIds.length > 0 ? await db.select({ id: authUsers.id, name: authUsers.name }).from(authUsers).where(inArray(authUsers.id, userIds)) : [];
  return {
    riskCase,
    branchName: branch?.name ?? null,
    alerts,
    notes,
    tokens: tokenRows.map((row) => ({ ...toMaskedToken(row), heldUntilClosed: row.releasedAt === null })),
    // Display names, as the rest of the desk names staff (the token list, the audit trail).
    names: Object.fromEntries(users.map((user) => [user.id, user.name])),
    reportDueAt: riskCase.suspicionFormedAt ? new Date(riskCase.suspicionFormedAt.getTime() + reportingClockMs) : null,
  };
}

function audit(db: DbExecutor, viewer: CaseViewer, action: string, caseId: string, details: Record<string, unknown> = {}) {
  // No branch: a branch's audit trail must not show a case that is not routed to its supervisor.
  return recordAuditEvent(db, { action, actor: { userId: viewer.userId, username: viewer.username }, subject: { type: "risk_case", id: caseId }, details });
}

function requireReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length < 5) throw new AppError("VALIDATION", "decision reason too short", { userMessage: "Give the reason for the decision (a sentence)." });
  return trimmed.slice(0, 2000);
}

export async function addNote(db: DbExecutor, viewer: CaseViewer, caseId: string, body: string): Promise<void> {
  const text = body.trim();
  if (text === "") throw new AppError("VALIDATION", "empty note", { userMessage: "Write the note first." });
  await db.transaction(async (tx) => {
    await visibleCase(tx, viewer, caseId);
    await tx.insert(riskCaseNotes).values({ caseId, authorUserId: viewer.userId, authorLabel: viewer.username, body: text.slice(0, 4000) });
    await audit(tx, viewer, "risk.case_noted", caseId, { length: text.length });
  });
}

/** Takes the case (assignee = the viewer) and starts the review. */
export async function takeCase(db: DbExecutor, viewer: CaseViewer, caseId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const riskCase = await visibleCase(tx, viewer, caseId, true);
    if (!(openCaseStates as readonly string[]).includes(riskCase.state)) throw new AppError("CONFLICT", "case closed", { userMessage: "This case is closed." });
    await tx
      .update(riskCases)
      .set({ assigneeUserId: viewer.userId, state: riskCase.state === "open" ? "in_review" : riskCase.state, updatedAt: new Date() })
      .where(eq(riskCases.id, caseId));
    await audit(tx, viewer, "risk.case_taken", caseId, { from: riskCase.state });
  });
}

export type Decision = "clear" | "escalate" | "report" | "not_report";
type ClosedState = (typeof closedStates)[number];
const closingOf: Record<Exclude<Decision, "escalate">, ClosedState> = { clear: "cleared", report: "reported", not_report: "not_reported" };

/**
 * Whether closing needs a second person: a high-severity case, or one about a staff member — by
 * every path that closes it (cleared; reported or not after an escalation), since each closes its
 * alerts and releases the evidence hold. The severity is read under the row lock at each step.
 */
export function closingNeedsSecondPerson(riskCase: Pick<RiskCase, "severity" | "subjectType">): boolean {
  return riskCase.severity === "high" || riskCase.subjectType === "staff";
}

export type DecideResult = { state: RiskCase["state"]; waitingForSecondPerson: boolean };

const noProposal = { closeProposedState: null, closeProposedByUserId: null, closeProposedAt: null, closeProposedReason: null } as const;

export async function decideCase(db: DbExecutor, viewer: CaseViewer, caseId: string, decision: Decision, reasonText: string, now = new Date()): Promise<DecideResult> {
  const reason = requireReason(reasonText);
  return db.transaction(async (tx) => {
    const riskCase = await visibleCase(tx, viewer, caseId, true);
    const isOpen = riskCase.state === "open" || riskCase.state === "in_review";
    if (decision === "escalate") {
      if (!isOpen) throw new AppError("CONFLICT", `cannot escalate a ${riskCase.state} case`, { userMessage: "Only an open case can be escalated." });
      // A clearing proposed before is withdrawn: the case now waits for the reporting decision.
      await tx.update(riskCases).set({ state: "escalated", suspicionFormedAt: now, updatedAt: now, decisionReason: reason, ...noProposal }).where(eq(riskCases.id, caseId));
      await audit(tx, viewer, "risk.case_escalated", caseId, { reason, suspicionFormedAt: now.toISOString() });
      return { state: "escalated", waitingForSecondPerson: false };
    }
    if (decision === "report" || decision === "not_report") {
      if (riskCase.state !== "escalated") throw new AppError("CONFLICT", "not escalated", { userMessage: "Only an escalated case is reported or not." });
      if (!isHeadOffice(viewer)) throw new AppError("FORBIDDEN", "reporting is head office's", { userMessage: "The AML reporting officer at head office decides the report." });
    } else if (!isOpen) {
      throw new AppError("CONFLICT", `cannot clear a ${riskCase.state} case`, { userMessage: "Only an open case can be cleared." });
    }
    const state = closingOf[decision];
    if (!closingNeedsSecondPerson(riskCase)) {
      await close(tx, viewer, riskCase, state, reason, now);
      return { state, waitingForSecondPerson: false };
    }
    // Two people: the first proposes this closing; a different decision is a new proposal.
    if (riskCase.closeProposedByUserId === null || riskCase.closeProposedState !== state) {
      await tx.update(riskCases).set({ closeProposedState: state, closeProposedByUserId: viewer.userId, closeProposedAt: now, closeProposedReason: reason, updatedAt: now }).where(eq(riskCases.id, caseId));
      await audit(tx, viewer, state === "cleared" ? "risk.case_clear_proposed" : "risk.case_close_proposed", caseId, { decision: state, reason });
      return { state: riskCase.state, waitingForSecondPerson: true };
    }
    // The subject never gets here (the case is not routed to them); the proposer and the assignee may not confirm.
    if (viewer.userId === riskCase.closeProposedByUserId || viewer.userId === riskCase.assigneeUserId || viewer.userId === riskCase.subjectUserId) {
      throw new AppError("FORBIDDEN", "second person must differ", { userMessage: "A second person, neither the one who proposed closing it nor the assignee, must confirm it." });
    }
    await close(tx, viewer, riskCase, state, reason, now);
    return { state, waitingForSecondPerson: false };
  });
}

async function close(tx: DbExecutor, viewer: CaseViewer, riskCase: RiskCase, state: ClosedState, reason: string, now: Date): Promise<void> {
  await tx.update(riskCases).set({ state, decidedByUserId: viewer.userId, decidedAt: now, decisionReason: reason, updatedAt: now }).where(eq(riskCases.id, riskCase.id));
  await tx.update(riskAlerts).set({ isOpen: false }).where(and(eq(riskAlerts.caseId, riskCase.id), eq(riskAlerts.isOpen, true)));
  const released = await releaseTokens(tx, riskCase.id, now);
  const proposedBy = riskCase.closeProposedState === state ? riskCase.closeProposedByUserId : null;
  await audit(tx, viewer, `risk.case_${state}`, riskCase.id, { reason, tokensReleased: released, ...(proposedBy ? { proposedBy } : {}) });
}

/** For tests and the figures: the cases a given subject has (no routing: server-side use only). */
export async function casesAbout(db: DbExecutor, subject: { type: string; key: string }): Promise<RiskCase[]> {
  return db
    .select()
    .from(riskCases)
    .where(and(eq(riskCases.subjectType, subject.type), or(eq(riskCases.subjectKey, subject.key))));
}
