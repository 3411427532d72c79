import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAuditEvent } from "@/lib/audit";
import { verifyAuditChain } from "@/lib/audit/chain";
import { erasePart } from "@/lib/compliance/erasure";
import { runRetentionJob } from "@/lib/compliance/retention-job";
import { riskAlerts, riskCases, riskCaseTokens, riskRuleVersions, tokenRequests } from "@/lib/db/schema";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { computeIdNumberIndex } from "@/lib/pii/blind-index";
import { aBranch, aStaffMember, aTokenRequest } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { countOpenCases, decideCase, getCase, listCases, takeCase, type CaseViewer } from "./cases";
import { evaluateChanges, readRiskLag } from "./evaluator";
import { readRuleFigures } from "./figures";

/**
 * The live evaluator, alerts and cases on a real database (ADR 0046): who can and cannot see
 * what. A third token for one ID opens a case for the branch's supervisor and head office, never
 * the teller (no list, no count, no detail); its tokens are held against erasure; a supervisor
 * revealing ID numbers past the threshold gets a staff case that neither they nor any branch
 * supervisor sees, which head office clears only with a second person; the audit chain verifies.
 */

const keys = scratchPiiKeys();

forEachDatabase("risk alerts and cases", (driver) => {
  let scratch: ScratchDatabase;
  const people = {} as Record<"teller" | "supervisorA" | "supervisorA2" | "supervisorB" | "headOffice1" | "headOffice2" | "admin", CaseViewer>;
  const branchIds = { A: "", B: "", HQ: "" };
  const idIndex = computeIdNumberIndex("GHA-123456789-0", keys);
  const tokenIds: string[] = [];

  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "risk_cases" });
    const db = scratch.db;
    for (const code of ["A", "B", "HQ"] as const) branchIds[code] = (await aBranch(db, { name: `Cases ${code}` })).id;
    const roles: [keyof typeof people, StaffRole, keyof typeof branchIds][] = [
      ["teller", "teller", "A"],
      ["supervisorA", "supervisor", "A"],
      ["supervisorA2", "supervisor", "A"],
      ["supervisorB", "supervisor", "B"],
      ["headOffice1", "head_office_supervisor", "HQ"],
      ["headOffice2", "head_office_supervisor", "HQ"],
      ["admin", "admin", "HQ"],
    ];
    for (const [name, role, branch] of roles) {
      const member = await aStaffMember(db, { role, branchId: branchIds[branch], displayName: `Person ${name}` });
      people[name] = { userId: member.userId, username: member.username, role, branch: { id: branchIds[branch] } };
    }
    // Rule 7's opening hours would make these tokens, issued whenever the test runs, a teller's case.
    await scratch.db.update(riskRuleVersions).set({ mode: "off" }).where(eq(riskRuleVersions.ruleKey, "teller_failure_rate"));
    // Everything written so far is history: the evaluator starts from here.
    await evaluateChanges(db, { owner: "test" });
  }, 120_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  async function issue(count: number) {
    for (let n = 0; n < count; n += 1) {
      const row = await aTokenRequest(scratch.db, {
        branchId: branchIds.A,
        issuedByUserId: people.teller.userId,
        kind: "fingerprint",
        outcome: "issued",
        idNumberIndex: idIndex,
        idNumberLast4: "7890",
        idNumberEncrypted: "not-read",
      });
      tokenIds.push(row.id);
    }
  }

  it("opens no case for two tokens, and one for the third, routed to the branch supervisor and head office", async () => {
    await issue(2);
    expect((await evaluateChanges(scratch.db, { owner: "test" })).casesOpened).toBe(0);
    await issue(1);
    expect((await readRiskLag(scratch.db)).tokenVersionsBehind).toBeGreaterThan(0);
    const pass = await evaluateChanges(scratch.db, { owner: "test" });
    expect(pass).toMatchObject({ ran: true, casesOpened: 1, alertsOpened: 1 });
    expect((await readRiskLag(scratch.db)).tokenVersionsBehind).toBe(0);

    for (const who of ["supervisorA", "headOffice1", "headOffice2"] as const) {
      const cases = await listCases(scratch.db, people[who]);
      expect(cases, who).toHaveLength(1);
      expect(cases[0]!.sentence).toMatch(/^ID GHA-•••••789-0: 3 tokens in \d+ min at 1 branch — rule 1 v1, ≥ 3 in 24 h or ≥ 2 branches$/);
      expect(await countOpenCases(scratch.db, people[who])).toBe(1);
    }
    for (const who of ["teller", "supervisorB", "admin"] as const) {
      expect(await listCases(scratch.db, people[who]), who).toEqual([]);
      expect(await countOpenCases(scratch.db, people[who])).toBe(0);
    }
    const [riskCase] = await listCases(scratch.db, people.headOffice1);
    await expect(getCase(scratch.db, people.teller, riskCase!.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getCase(scratch.db, people.supervisorB, riskCase!.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const detail = await getCase(scratch.db, people.supervisorA, riskCase!.id);
    expect(detail.tokens.map((token) => token.id).sort()).toEqual([...tokenIds].sort());
    expect(detail.tokens.every((token) => token.heldUntilClosed && token.maskedIdNumber === "GHA-•••••789-0")).toBe(true);
  });

  it("holds the case's tokens: erasure leaves them until the case closes", async () => {
    expect(await erasePart(scratch.db, tokenIds, "identity", "request", new Date())).toEqual([]);
  });

  // Decades on, every clock has run out: only the case's hold keeps the tokens.
  const retention = { settings: { contactDays: 30, identityYears: 7 }, now: new Date(Date.now() + 30 * 365 * 24 * 3_600_000), trigger: "command" as const };
  const erasedOf = async (ids: readonly string[]) =>
    (await scratch.db.select({ id: tokenRequests.id, contact: tokenRequests.contactErasedAt, identity: tokenRequests.identityErasedAt }).from(tokenRequests)).filter((row) => ids.includes(row.id));

  it("holds the case's tokens against the retention job too, while the case is open", async () => {
    const report = await runRetentionJob(scratch.db, retention);
    expect(report).toMatchObject({ status: "ran", contactErased: 0, identityErased: 0 });
    expect(report.examined).toBeGreaterThanOrEqual(tokenIds.length);
    for (const row of await erasedOf(tokenIds)) expect(row, row.id).toMatchObject({ contact: null, identity: null });
  });

  it("extends the one alert with a fourth token, and a second pass over the same rows changes nothing", async () => {
    expect(await evaluateChanges(scratch.db, { owner: "test" })).toMatchObject({ alertsOpened: 0, alertsExtended: 0, casesOpened: 0 });
    await issue(1);
    expect(await evaluateChanges(scratch.db, { owner: "test" })).toMatchObject({ alertsOpened: 0, alertsExtended: 1, casesOpened: 0 });
    const alerts = await scratch.db.select().from(riskAlerts).where(eq(riskAlerts.subjectKey, idIndex));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.tokenIds).toHaveLength(4);
    expect(alerts[0]!.counts.tokens).toBe(4);
  });

  it("gives a staff member's reveals past the threshold a case only head office sees, cleared only by a second person", async () => {
    const subject = people.supervisorA;
    for (let n = 0; n < 21; n += 1) {
      await recordAuditEvent(scratch.db, { action: "token.id_revealed", actor: { userId: subject.userId, username: subject.username }, subject: { type: "token_request", id: tokenIds[0]! }, branchId: branchIds.A, details: { reason: "test" } });
    }
    expect(await evaluateChanges(scratch.db, { owner: "test" })).toMatchObject({ casesOpened: 1 });
    const staffCase = (await listCases(scratch.db, people.headOffice1)).find((row) => row.subjectType === "staff")!;
    expect(staffCase.sentence).toBe(`Staff ${subject.username}: 21 ID reveals in 24 h — rule 8 v1, > 20 reveals, > 30 searches or > 3 full-ID exports in 24 h, or a reveal with no token at the branch in 30 days`);
    for (const who of ["supervisorA", "supervisorA2", "supervisorB", "teller", "admin"] as const) {
      expect((await listCases(scratch.db, people[who])).some((row) => row.subjectType === "staff"), who).toBe(false);
      await expect(getCase(scratch.db, people[who], staffCase.id), who).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
    await takeCase(scratch.db, people.headOffice1, staffCase.id);
    expect(await decideCase(scratch.db, people.headOffice1, staffCase.id, "clear", "Reveals were for a branch audit, checked.")).toEqual({ state: "in_review", waitingForSecondPerson: true });
    await expect(decideCase(scratch.db, people.headOffice1, staffCase.id, "clear", "Confirming my own proposal.")).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(decideCase(scratch.db, people.headOffice2, staffCase.id, "clear", "no")).rejects.toMatchObject({ code: "VALIDATION" });
    expect(await decideCase(scratch.db, people.headOffice2, staffCase.id, "clear", "Agreed: the branch audit explains them.")).toEqual({ state: "cleared", waitingForSecondPerson: false });
    const held = await scratch.db.select().from(riskCaseTokens).where(and(eq(riskCaseTokens.caseId, staffCase.id), isNull(riskCaseTokens.releasedAt)));
    expect(held).toEqual([]);
  });

  it("escalates a customer case with the 24-hour clock, and only head office reports it; closing releases the hold", async () => {
    const [riskCase] = (await listCases(scratch.db, people.supervisorA)).filter((row) => row.subjectType === "id");
    await decideCase(scratch.db, people.supervisorA, riskCase!.id, "escalate", "Same card at one desk four times in minutes.");
    const detail = await getCase(scratch.db, people.headOffice1, riskCase!.id);
    expect(detail.riskCase.state).toBe("escalated");
    expect(detail.reportDueAt!.getTime() - detail.riskCase.suspicionFormedAt!.getTime()).toBe(24 * 3_600_000);
    await expect(decideCase(scratch.db, people.supervisorA, riskCase!.id, "report", "Reporting it to the FIC.")).rejects.toMatchObject({ code: "FORBIDDEN" });
    // A high case: the report is proposed by one and confirmed by a second person (issue 34).
    expect(await decideCase(scratch.db, people.headOffice1, riskCase!.id, "report", "Reported to the FIC.")).toEqual({ state: "escalated", waitingForSecondPerson: true });
    expect((await decideCase(scratch.db, people.headOffice2, riskCase!.id, "report", "Confirmed: reported to the FIC.")).state).toBe("reported");
    // People are named as on the rest of the desk: by display name, never by username.
    const reported = await getCase(scratch.db, people.headOffice1, riskCase!.id);
    expect(reported.names[reported.riskCase.decidedByUserId!]).toBe("Person headOffice2");
    expect((await erasePart(scratch.db, tokenIds.slice(0, 1), "contact", "request", new Date())).length).toBe(1);
  });

  it("lets the retention job erase the tokens once the case is closed", async () => {
    const held = await scratch.db.select().from(riskCaseTokens).where(isNull(riskCaseTokens.releasedAt));
    expect(held).toEqual([]);
    const report = await runRetentionJob(scratch.db, retention);
    expect(report.identityErased).toBeGreaterThanOrEqual(tokenIds.length);
    for (const row of await erasedOf(tokenIds)) expect(row.identity, row.id).not.toBeNull();
  });

  it("adds nothing to the queue for a shadow version, and alerts on nothing before a version was approved", async () => {
    const [velocity] = await scratch.db.select().from(riskRuleVersions).where(and(eq(riskRuleVersions.ruleKey, "same_id_velocity"), eq(riskRuleVersions.status, "active")));
    await scratch.db.update(riskRuleVersions).set({ mode: "shadow" }).where(eq(riskRuleVersions.id, velocity!.id));
    const shadowIndex = computeIdNumberIndex("GHA-999999999-9", keys);
    for (let n = 0; n < 3; n += 1) await aTokenRequest(scratch.db, { branchId: branchIds.B, issuedByUserId: people.teller.userId, idNumberIndex: shadowIndex, idNumberLast4: "9999", kind: "fingerprint" });
    const shadowPass = await evaluateChanges(scratch.db, { owner: "test" });
    expect(shadowPass, JSON.stringify(shadowPass)).toMatchObject({ alertsOpened: 1, casesOpened: 0 });
    expect(await scratch.db.select().from(riskCases).where(eq(riskCases.subjectKey, shadowIndex))).toEqual([]);
    // Live again, but approved only now: the three tokens before it make no alert.
    await scratch.db.update(riskRuleVersions).set({ mode: "live", approvedAt: new Date(Date.now() + 1_000) }).where(eq(riskRuleVersions.id, velocity!.id));
    await aTokenRequest(scratch.db, { branchId: branchIds.B, issuedByUserId: people.teller.userId, idNumberIndex: shadowIndex, idNumberLast4: "9999", kind: "fingerprint" });
    expect(await evaluateChanges(scratch.db, { owner: "test" })).toMatchObject({ alertsOpened: 0, casesOpened: 0 });
  });

  it("gives each rule's hits per 1,000 tokens and the share of its decided cases cleared as false positives", async () => {
    const figures = await readRuleFigures(scratch.db, people.headOffice2, { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 60_000) });
    // The 4 tokens of the reported case, 3 under the shadow version, 1 after the re-approval.
    expect(figures.tokens).toBe(8);
    const of = (key: string) => figures.rules.find((rule) => rule.ruleKey === key)!;
    // Rule 1: one live alert raised then extended (2 hits), one shadow alert; its one case was reported.
    expect(of("same_id_velocity")).toMatchObject({ liveHits: 2, shadowHits: 1, livePerThousand: 250, shadowPerThousand: 125, decidedCases: 1, clearedCases: 0, falsePositiveShare: 0 });
    // Rule 8: the staff case, cleared by two people.
    expect(of("staff_id_access")).toMatchObject({ liveHits: 1, decidedCases: 1, clearedCases: 1, falsePositiveShare: 1 });
    expect(of("mule_phone")).toMatchObject({ liveHits: 0, livePerThousand: 0, decidedCases: 0, falsePositiveShare: null });
    expect(figures.rules).toHaveLength(10);
  });

  // Issue 34: escalate → "not reported" by one supervisor closed a staff case, its alerts and the hold alone.
  it("closes an escalated staff case as not reported (or reported) only with a second person", async () => {
    const subject = people.supervisorA2;
    for (let n = 0; n < 21; n += 1) {
      await recordAuditEvent(scratch.db, { action: "token.id_revealed", actor: { userId: subject.userId, username: subject.username }, subject: { type: "token_request", id: tokenIds[1]! }, branchId: branchIds.A, details: { reason: "test" } });
    }
    expect(await evaluateChanges(scratch.db, { owner: "test" })).toMatchObject({ casesOpened: 1 });
    const staffCase = (await listCases(scratch.db, people.headOffice1, { open: true })).find((row) => row.subjectType === "staff" && row.subjectUserId === subject.userId)!;
    const isHeld = async () => (await scratch.db.select().from(riskCaseTokens).where(and(eq(riskCaseTokens.caseId, staffCase.id), isNull(riskCaseTokens.releasedAt)))).length > 0;
    expect(await isHeld()).toBe(true);
    const one = people.headOffice1;
    await decideCase(scratch.db, one, staffCase.id, "escalate", "Reveals of cards never seen at the branch.");
    // One person alone: the proposal waits, and the same person cannot confirm it.
    expect(await decideCase(scratch.db, one, staffCase.id, "not_report", "Explained by the branch audit.")).toEqual({ state: "escalated", waitingForSecondPerson: true });
    await expect(decideCase(scratch.db, one, staffCase.id, "not_report", "Confirming my own proposal.")).rejects.toMatchObject({ code: "FORBIDDEN" });
    // Switching to "report" is a new proposal, never a closing by the same one person.
    expect(await decideCase(scratch.db, one, staffCase.id, "report", "Reporting it after all.")).toEqual({ state: "escalated", waitingForSecondPerson: true });
    await expect(decideCase(scratch.db, one, staffCase.id, "report", "Confirming my own report.")).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await getCase(scratch.db, people.headOffice2, staffCase.id)).riskCase.state).toBe("escalated");
    expect(await isHeld()).toBe(true);
    const openAlerts = await scratch.db.select().from(riskAlerts).where(and(eq(riskAlerts.caseId, staffCase.id), eq(riskAlerts.isOpen, true)));
    expect(openAlerts.length).toBeGreaterThan(0);
    // A second person confirming the other closing is their own proposal, not a confirmation.
    expect(await decideCase(scratch.db, people.headOffice2, staffCase.id, "not_report", "Not reportable: the audit explains it.")).toEqual({ state: "escalated", waitingForSecondPerson: true });
    // The first confirms the second's proposal: two people, the case closes.
    expect(await decideCase(scratch.db, one, staffCase.id, "not_report", "Agreed: not reportable.")).toEqual({ state: "not_reported", waitingForSecondPerson: false });
    expect(await isHeld()).toBe(false);
    expect(await scratch.db.select().from(riskAlerts).where(and(eq(riskAlerts.caseId, staffCase.id), eq(riskAlerts.isOpen, true)))).toEqual([]);
    // Neither the subject nor a branch supervisor may even try.
    for (const who of ["supervisorA2", "supervisorA"] as const) {
      await expect(decideCase(scratch.db, people[who], staffCase.id, "not_report", "Closing it myself.")).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
  });

  it("refuses every one-person closing of a high customer case: clear, then report after escalating", async () => {
    const index = computeIdNumberIndex("GHA-444444444-4", keys);
    await scratch.db.update(riskRuleVersions).set({ approvedAt: new Date(0) }).where(eq(riskRuleVersions.ruleKey, "same_id_velocity"));
    for (let n = 0; n < 3; n += 1) await aTokenRequest(scratch.db, { branchId: branchIds.A, issuedByUserId: people.teller.userId, kind: "fingerprint", outcome: "issued", idNumberIndex: index, idNumberLast4: "4444", idNumberEncrypted: "not-read" });
    await evaluateChanges(scratch.db, { owner: "test" });
    const [customerCase] = await scratch.db.select().from(riskCases).where(and(eq(riskCases.subjectKey, index)));
    expect(customerCase).toBeDefined();
    expect(customerCase!.severity).toBe("high");
    const one = people.headOffice1;
    expect((await decideCase(scratch.db, one, customerCase!.id, "clear", "Nothing to see here.")).waitingForSecondPerson).toBe(true);
    await expect(decideCase(scratch.db, one, customerCase!.id, "clear", "Confirming myself.")).rejects.toMatchObject({ code: "FORBIDDEN" });
    // Escalating withdraws the clearing; reporting alone waits too.
    await decideCase(scratch.db, one, customerCase!.id, "escalate", "Four cards at one desk.");
    expect((await getCase(scratch.db, one, customerCase!.id)).riskCase.closeProposedByUserId).toBeNull();
    expect((await decideCase(scratch.db, one, customerCase!.id, "report", "Reported to the FIC.")).waitingForSecondPerson).toBe(true);
    expect((await decideCase(scratch.db, people.headOffice2, customerCase!.id, "report", "Confirmed: reported.")).state).toBe("reported");
  });

  it("keeps the audit chain whole", async () => {
    expect((await verifyAuditChain(scratch.db)).firstBreak).toBeNull();
  });

  if (driver === "postgres") {
    describe("two instances", () => {
      it("take turns: passes at once evaluate each change once", async () => {
        const other = await scratch.openAgain("risk-second-instance");
        try {
          const index = computeIdNumberIndex(`GHA-${randomUUID().replace(/\D/g, "").padEnd(9, "1").slice(0, 9)}-1`, keys);
          for (let n = 0; n < 3; n += 1) await aTokenRequest(scratch.db, { branchId: branchIds.A, issuedByUserId: people.teller.userId, idNumberIndex: index, idNumberLast4: "1111", kind: "fingerprint" });
          await scratch.db.update(riskRuleVersions).set({ approvedAt: new Date(0) }).where(eq(riskRuleVersions.ruleKey, "same_id_velocity"));
          const reports = await Promise.all([evaluateChanges(scratch.db, { owner: "one" }), evaluateChanges(other.db, { owner: "two" }), evaluateChanges(other.db, { owner: "two" })]);
          expect(reports.filter((report) => report.ran).length).toBeGreaterThanOrEqual(1);
          expect(await scratch.db.select().from(riskCases).where(eq(riskCases.subjectKey, index))).toHaveLength(1);
        } finally {
          await other.close();
        }
      });
    });
  }
});
