import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { recordAuditEvent } from "@/lib/audit";
import { verifyAndRecordAuditChain } from "@/lib/audit/verify";
import { caseRoutingCondition, isCaseRoutedTo, type CaseViewer } from "@/lib/compliance/case-routing";
import { riskCases, riskRuleVersions } from "@/lib/db/schema";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { computeIdNumberIndex } from "@/lib/pii/blind-index";
import { runBacktest } from "@/lib/risk/backtest";
import { evaluateChanges } from "@/lib/risk/evaluator";
import { readRuleFigures } from "@/lib/risk/figures";
import { loadActiveRules } from "@/lib/risk/rule-versions";
import { accessActions } from "@/lib/risk/rules/staff-id-access";
import { aBranch, aStaffMember, aTokenRequest } from "@/test/kit/builders";
import { parseCsv } from "@/test/kit/csv";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { exportAuditTrail, listAuditActions, listAuditTrailPage, type AuditTrailFilter } from "./audit-trail";
import { openReviewTokenDetail } from "./token-detail";

/**
 * Issue 34, "tipping off": a head-office supervisor makes four full-ID exports, rule 8 opens a
 * staff case about them, and their own audit trail (page, count, event filter, CSV) showed
 * "Risk alert raised … risk_case:<id> {"rule":"staff_id_access", …}" and `risk.case_opened` with
 * its severity, though the case itself was NOT_FOUND for them. Every reader now routes a row about
 * a case as the case is routed (ADR 0050): the subject reads nothing of it, whatever the filter;
 * the other head office reads all of it; a branch supervisor reads their branch's customer case.
 */

const keys = scratchPiiKeys();
/** What the staff case's rows say: its rule, and the words rule 8's counts are kept under. */
const staffCaseWords = /staff_id_access|full_exports|"reveals"|"searches"/;
const isCaseRow = (event: { action: string; subjectType: string | null }) => event.subjectType === "risk_case" || /^risk\.(case|alert)_/.test(event.action);

forEachDatabase("audit rows about risk cases, routed like the case", (driver) => {
  let scratch: ScratchDatabase;
  const people = {} as Record<"subject" | "headOffice2" | "supervisorA" | "supervisorB" | "admin", CaseViewer & { name: string }>;
  const branchIds = { A: "", B: "", HQ: "" };
  let staffCaseId = "";
  let customerCaseId = "";
  let tokenId = "";

  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "audit_routing" });
    const db = scratch.db;
    for (const code of ["A", "B", "HQ"] as const) branchIds[code] = (await aBranch(db, { name: `Routing ${code}` })).id;
    const roles: [keyof typeof people, StaffRole, keyof typeof branchIds][] = [
      ["subject", "head_office_supervisor", "HQ"],
      ["headOffice2", "head_office_supervisor", "HQ"],
      ["supervisorA", "supervisor", "A"],
      ["supervisorB", "supervisor", "B"],
      ["admin", "admin", "HQ"],
    ];
    for (const [name, role, branch] of roles) {
      const member = await aStaffMember(db, { role, branchId: branchIds[branch], displayName: `Person ${name}` });
      people[name] = { userId: member.userId, username: member.username, name: `Person ${name}`, role, branch: { id: branchIds[branch] } };
    }
    await db.update(riskRuleVersions).set({ mode: "off" }).where(eq(riskRuleVersions.ruleKey, "teller_failure_rate"));
    await evaluateChanges(db, { owner: "test" });

    // The subject's four full-ID exports (the fourth is over rule 8's three), as review writes them.
    for (let n = 0; n < 4; n += 1) {
      await recordAuditEvent(db, {
        action: accessActions.exportedFullIds,
        actor: { userId: people.subject.userId, username: people.subject.username },
        branchId: branchIds.HQ,
        details: { reason: "Compliance request", rows: 3 },
      });
    }
    // A customer case at branch A: three tokens for one ID number.
    const teller = await aStaffMember(db, { role: "teller", branchId: branchIds.A });
    const index = computeIdNumberIndex("GHA-555555555-5", keys);
    for (let n = 0; n < 3; n += 1) {
      const row = await aTokenRequest(db, { branchId: branchIds.A, issuedByUserId: teller.userId, kind: "fingerprint", outcome: "issued", idNumberIndex: index, idNumberLast4: "5555", idNumberEncrypted: "not-read" });
      tokenId = row.id;
    }
    expect(await evaluateChanges(db, { owner: "test" })).toMatchObject({ casesOpened: 2 });
    const cases = await db.select().from(riskCases);
    staffCaseId = cases.find((one) => one.subjectType === "staff")!.id;
    customerCaseId = cases.find((one) => one.subjectType === "id")!.id;
    expect(cases.find((one) => one.id === staffCaseId)!.subjectUserId).toBe(people.subject.userId);
  }, 120_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  const filters = (viewer: CaseViewer): AuditTrailFilter[] => [
    {},
    { staffUserId: viewer.userId },
    { action: "risk.alert_raised" },
    { action: "risk.case_opened" },
    { from: "2000-01-01", to: "2100-12-31" },
    { staffUserId: viewer.userId, action: "risk.alert_raised", from: "2000-01-01", to: "2100-12-31" },
  ];

  async function visibleRows(viewer: CaseViewer, filter: AuditTrailFilter = {}) {
    const page = await listAuditTrailPage(scratch.db, viewer, filter, 1, 500);
    return { page, text: JSON.stringify(page.events) };
  }

  async function csvOf(viewer: CaseViewer & { name: string }, filter: AuditTrailFilter) {
    const response = await exportAuditTrail(scratch.db, { staff: { ...viewer, branch: { ...viewer.branch, code: "X", name: "X" }, permissions: [], mustChangePassword: false } as never, requestId: "routing" }, filter);
    return response.text();
  }

  it("shows the subject nothing of the case about them: no row, no count, no rule, no severity, under every filter, page and CSV", async () => {
    const subject = people.subject;
    for (const filter of filters(subject)) {
      const { page, text } = await visibleRows(subject, filter);
      expect(text, JSON.stringify(filter)).not.toMatch(staffCaseWords);
      expect(text, JSON.stringify(filter)).not.toContain(staffCaseId);
      // Head office still reads the customer case's rows: routing hides the subject's case, not every case.
      expect(page.events.filter(isCaseRow).every((event) => event.subjectId === customerCaseId), JSON.stringify(filter)).toBe(true);
      const csv = await csvOf(subject, filter);
      expect(csv, JSON.stringify(filter)).not.toMatch(staffCaseWords);
      expect(csv, JSON.stringify(filter)).not.toContain(staffCaseId);
    }
    expect((await visibleRows(subject, { action: "risk.case_opened" })).page.events.map((event) => event.subjectId)).toEqual([customerCaseId]);
    // The count on the page is the rows they may read: their four exports (and the CSV export rows) are all.
    const own = await listAuditTrailPage(scratch.db, subject, { staffUserId: subject.userId }, 1, 500);
    expect(own.events.filter(isCaseRow)).toEqual([]);
    expect(own.total).toBe(own.events.length);
    // Every case row the subject's trail counts is the customer case's: none of theirs.
    const everything = await listAuditTrailPage(scratch.db, subject, {}, 1, 500);
    expect(everything.total).toBe(everything.events.length);
    expect(everything.events.filter(isCaseRow).length).toBe(2);
  });

  it("shows the other head office the staff case's rows, in the page and the CSV", async () => {
    const { page } = await visibleRows(people.headOffice2, { action: "risk.alert_raised" });
    expect(page.events.some((event) => event.subjectId === staffCaseId && (event.details as { rule?: string }).rule === "staff_id_access")).toBe(true);
    const [header, ...rows] = parseCsv(await csvOf(people.headOffice2, { action: "risk.case_opened" }));
    const subjectColumn = header!.indexOf("Subject");
    expect(rows.map((cells) => cells[subjectColumn])).toEqual(expect.arrayContaining([`risk_case:${staffCaseId}`, `risk_case:${customerCaseId}`]));
    expect(await listAuditActions(scratch.db, people.headOffice2)).toEqual(expect.arrayContaining(["risk.alert_raised", "risk.case_opened"]));
  });

  it("shows a branch supervisor their branch's customer case and never the staff case; another branch and an administrator neither", async () => {
    const a = (await visibleRows(people.supervisorA)).page.events.filter((event) => event.subjectType === "risk_case");
    expect(new Set(a.map((event) => event.subjectId))).toEqual(new Set([customerCaseId]));
    for (const who of ["supervisorB", "admin"] as const) {
      const { page } = await visibleRows(people[who]);
      expect(page.events.filter(isCaseRow), who).toEqual([]);
      const csv = await csvOf(people[who], {});
      expect(csv, who).not.toMatch(staffCaseWords);
      expect(csv, who).not.toContain(staffCaseId);
      expect(csv, who).not.toContain(customerCaseId);
      expect((await listAuditActions(scratch.db, people[who])).filter((action) => /^risk\.(case|alert)_/.test(action)), who).toEqual([]);
    }
  });

  it("counts no hit and no case about the reader in the rule figures, nor in a backtest", async () => {
    const range = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 60_000) };
    const ruleEight = async (viewer: CaseViewer) => (await readRuleFigures(scratch.db, viewer, range)).rules.find((rule) => rule.ruleKey === "staff_id_access")!;
    expect((await ruleEight(people.subject)).liveHits).toBe(0);
    expect((await ruleEight(people.headOffice2)).liveHits).toBe(1);
    const rules = (await loadActiveRules(scratch.db)).filter((rule) => rule.ruleKey === "staff_id_access");
    const own = await runBacktest(scratch.db, people.subject, rules, range);
    expect(own.hits).toEqual([]);
    expect(own.perRule[0]).toMatchObject({ subjects: 0, triggers: 0, pastCases: { considered: 0 } });
    const other = await runBacktest(scratch.db, people.headOffice2, rules, range);
    expect(other.hits.map((hit) => hit.subjectKey)).toEqual([people.subject.userId]);
    expect(other.perRule[0]!.pastCases.considered).toBe(1);
  });

  it("keeps the token page's access list routed too (no case row can reach it)", async () => {
    const detail = await openReviewTokenDetail(scratch.db, { staff: { ...people.supervisorA, branch: { id: branchIds.A, code: "A", name: "A" }, permissions: [], mustChangePassword: false } as never, scope: { kind: "branch", branchId: branchIds.A } }, tokenId);
    expect(JSON.stringify(detail)).not.toMatch(/risk_case|risk\.(case|alert)_/);
  });

  it("tells the one who verifies the trail no count of it: the whole trail's beside their own would give the case away", async () => {
    const subject = people.subject;
    const report = await verifyAndRecordAuditChain(scratch.db, { actor: { userId: subject.userId, username: subject.username }, branchId: branchIds.HQ, requestId: "verify" });
    expect(report.firstBreak).toBeNull();
    expect(report).not.toHaveProperty("eventCount");
    expect(report.headSeq).toBeNull();
    const [recorded] = (await listAuditTrailPage(scratch.db, people.headOffice2, { action: "audit.chain_verified" }, 1, 10)).events;
    expect(Object.keys(recorded!.details).sort()).toEqual(["headHash", "intact"]);
  });

  it("routes in TypeScript exactly as in SQL (the backtest's hits and the cases' WHERE agree)", async () => {
    for (const viewer of Object.values(people)) {
      const routed = new Set((await scratch.db.select({ id: riskCases.id }).from(riskCases).where(caseRoutingCondition(viewer))).map((row) => row.id));
      for (const one of await scratch.db.select().from(riskCases)) {
        expect(isCaseRoutedTo(viewer, one), `${viewer.username} ${one.subjectType}`).toBe(routed.has(one.id));
      }
    }
    // And the raw count: what the subject's trail holds is what they may read.
    const [all] = await scratch.db.execute(sql`select count(*)::int as n from audit_events where subject_type = 'risk_case'`).then((result) => (result as unknown as { rows: { n: number }[] }).rows);
    expect(all!.n).toBeGreaterThan(0);
  });
});
