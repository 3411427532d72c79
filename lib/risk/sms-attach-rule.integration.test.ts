import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { riskAlerts, riskRuleVersions, tokenRequests } from "@/lib/db/schema";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { AppError } from "@/lib/errors";
import { listAuditTrailPage } from "@/lib/review/audit-trail";
import { attachTokenFromSms } from "@/lib/tokens/attach-sms-token";
import { issueRemoteToken } from "@/lib/tokens/issue-token";
import type { UpstreamClient } from "@/lib/upstream";
import { aBranch, aStaffMember } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { remoteSubmission } from "@/test/kit/submissions";
import { getCase, listCases, type CaseViewer } from "./cases";
import { evaluateChanges } from "./evaluator";

/**
 * Rule 10 (ADR 0037, issue 34): two tellers' attempts lose their answers, and a supervisor enters
 * B's SMS token on A's attempt. The attach was audited with both names but no rule read it, so no
 * alert. Now every attach raises one: a staff case about the supervisor who vouched for the token,
 * routed to head office only — never to the attacher, never to a branch supervisor.
 */

const keys = scratchPiiKeys();
const ISSUE_TIMEOUT_MS = 400;
const silentLog = { info: () => undefined, error: () => undefined };

/** The service: no answer to issuing (the attempts are lost); B's token pending when checked. */
function serviceKnowing(knownTokens: string[]): UpstreamClient {
  return {
    initiateFingerprintToken: () => Promise.reject(new AppError("UPSTREAM_TIMEOUT", "no answer")),
    initiateRemoteToken: () => Promise.reject(new AppError("UPSTREAM_TIMEOUT", "no answer")),
    checkTokenState: async (token) => (knownTokens.includes(token) ? { state: "pending" as const, message: "Pending Token" } : { state: "invalid" as const, message: "Invalid Token" }),
    getTokenResult: () => Promise.reject(new Error("not used")),
  };
}

forEachDatabase("risk rule 10: SMS-token attaches", (driver) => {
  let scratch: ScratchDatabase;
  const people = {} as Record<"tellerA" | "tellerB" | "attacher" | "supervisor2" | "headOffice1" | "headOffice2", CaseViewer>;
  const branch = { id: "", name: "" };

  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "risk_attach" });
    const db = scratch.db;
    const kumasi = await aBranch(db, { name: "Attach Kumasi" });
    const hq = await aBranch(db, { name: "Attach HQ" });
    Object.assign(branch, { id: kumasi.id, name: kumasi.name });
    const roles: [keyof typeof people, StaffRole, string][] = [
      ["tellerA", "teller", kumasi.id],
      ["tellerB", "teller", kumasi.id],
      ["attacher", "supervisor", kumasi.id],
      ["supervisor2", "supervisor", kumasi.id],
      ["headOffice1", "head_office_supervisor", hq.id],
      ["headOffice2", "head_office_supervisor", hq.id],
    ];
    for (const [name, role, branchId] of roles) {
      const member = await aStaffMember(db, { role, branchId });
      people[name] = { userId: member.userId, username: member.username, role, branch: { id: branchId } };
    }
    // Rule 7's opening hours would make these attempts a teller's case whenever the test runs.
    await db.update(riskRuleVersions).set({ mode: "off" }).where(eq(riskRuleVersions.ruleKey, "teller_failure_rate"));
    await evaluateChanges(db, { owner: "test" });
  }, 120_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  async function lostAttempt(teller: CaseViewer): Promise<string> {
    const submission = remoteSubmission({ purpose: "Account opening" });
    await issueRemoteToken(submission, { userId: teller.userId, username: teller.username, branch }, "req-issue", { db: scratch.db, upstream: serviceKnowing([]), keys, log: silentLog }).catch((error: unknown) =>
      expect(error).toMatchObject({ code: "UPSTREAM_TIMEOUT" }),
    );
    const [row] = await scratch.db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, submission.idempotencyKey));
    expect(row).toMatchObject({ outcome: "outcome_unknown", token: null });
    return row!.id;
  }

  it("raises an alert for a supervisor attaching B's token to A's attempt, as a staff case only head office sees", async () => {
    const attemptA = await lostAttempt(people.tellerA);
    await lostAttempt(people.tellerB);
    const tokenOfB = "BTOKEN123";
    await attachTokenFromSms({ tokenRequestId: attemptA, token: tokenOfB }, { userId: people.attacher.userId, username: people.attacher.username, scope: { kind: "branch", branchId: branch.id } }, "req-attach", {
      db: scratch.db,
      keys,
      upstream: serviceKnowing([tokenOfB]),
      issueTimeoutMs: ISSUE_TIMEOUT_MS,
    });

    const pass = await evaluateChanges(scratch.db, { owner: "test" });
    expect(pass.casesOpened, JSON.stringify(pass)).toBeGreaterThanOrEqual(1);
    const [alert] = await scratch.db.select().from(riskAlerts).where(eq(riskAlerts.ruleKey, "sms_token_attach"));
    expect(alert).toMatchObject({ subjectType: "staff", subjectKey: people.attacher.userId, mode: "live", tokenIds: [attemptA], counts: { attaches: 1, issuers: 1 } });
    expect(alert!.sentence).toBe(`Staff ${people.attacher.username}: a token entered from a customer's SMS — rule 10 v1, every attach`);

    for (const who of ["headOffice1", "headOffice2"] as const) {
      const cases = (await listCases(scratch.db, people[who])).filter((one) => one.id === alert!.caseId);
      expect(cases, who).toHaveLength(1);
      expect((await getCase(scratch.db, people[who], alert!.caseId!)).tokens.map((token) => token.id), who).toEqual([attemptA]);
    }
    for (const who of ["attacher", "supervisor2", "tellerA"] as const) {
      expect((await listCases(scratch.db, people[who])).some((one) => one.id === alert!.caseId), who).toBe(false);
      await expect(getCase(scratch.db, people[who], alert!.caseId!), who).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
    // Nor does the attacher's own audit trail say anything of it.
    const trail = await listAuditTrailPage(scratch.db, people.attacher, {}, 1, 500);
    expect(JSON.stringify(trail.events)).not.toContain(alert!.caseId!);
    expect(JSON.stringify(trail.events)).not.toContain("sms_token_attach");
  });

  it("extends nothing and raises nothing on a second pass over the same attach", async () => {
    expect(await evaluateChanges(scratch.db, { owner: "test" })).toMatchObject({ alertsOpened: 0, alertsExtended: 0, casesOpened: 0 });
  });
});
