import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { permissionsOf } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/types";
import type { Database } from "@/lib/db/types";
import { planDemoData } from "@/scripts/demo-data/plan";
import { writeDemoData } from "@/scripts/demo-data/writer";
import { recordSheetPrinted, signOffBranchDay } from "./reconciliation";
import { FUTURE_SHEET_MESSAGE, signOffRefusals } from "./sign-off";
import { bankDayOf } from "@/lib/bank-time";
import { forEachDatabase, openScratchDatabase, queryRows, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";

/**
 * The on-screen sign-off of a branch's day, through the use case the action runs: only a day that
 * has ended, not before the branch's first token; a refused one writes nothing. PGlite and
 * PostgreSQL.
 */

const now = new Date("2026-11-20T11:00:00.000Z");

function defineSignOffTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;
  let db: Database;
  let supervisor: Staff;
  let firstDay: string;

  beforeAll(async () => {
    scratch = await createDatabase();
    db = scratch.opened.db;
    await writeDemoData(db, planDemoData({ now, totalTokens: 120 }), { keys: scratchPiiKeys() });
    const [kumasi] = await queryRows<{ id: string }>(db, sql`select id from branches where code = 'KUM'`);
    const [first] = await queryRows<{ at: string | Date }>(db, sql`select min(created_at) as at from token_requests where branch_id = ${kumasi!.id}::uuid`);
    firstDay = bankDayOf(new Date(first!.at));
    supervisor = {
      userId: "sign-off-supervisor",
      username: "supervisor.signoff",
      name: "Efua Sign-off",
      role: "supervisor",
      branch: { id: kumasi!.id, code: "KUM", name: "Kumasi" },
      permissions: permissionsOf("supervisor"),
      session: { id: "s", signInMethod: "password", idleExpiresAt: new Date(), absoluteExpiresAt: new Date() },
    };
  }, 120_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  const signOff = (day: string, requestId: string) =>
    signOffBranchDay(db, { staff: supervisor, scope: branchScopeFor(supervisor), requestId }, { branchId: supervisor.branch.id, day, note: "Checked against the branch's own list" }, now);
  const signedOff = async (requestId: string) => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from audit_events where request_id = ${requestId}`))[0]!.n;

  it.each([
    ["2099-12-31", signOffRefusals.notEnded],
    ["2026-11-21", signOffRefusals.notEnded],
    // The day `now` falls on: still going.
    ["2026-11-20", signOffRefusals.notEnded],
    ["2020-01-01", signOffRefusals.beforeFirstToken],
  ])("refuses %s, saying why, and records nothing", async (day, message) => {
    const requestId = `refused-${day}`;
    await expect(signOff(day, requestId)).rejects.toMatchObject({ code: "VALIDATION", userMessage: message });
    expect(await signedOff(requestId)).toBe(0);
  });

  it("refuses the day before the branch's first token and signs off that first day", async () => {
    const before = new Date(`${firstDay}T00:00:00Z`);
    before.setUTCDate(before.getUTCDate() - 1);
    await expect(signOff(before.toISOString().slice(0, 10), "refused-before")).rejects.toMatchObject({ userMessage: signOffRefusals.beforeFirstToken });
    await expect(signOff(firstDay, "first-day")).resolves.toMatchObject({ signedByName: "Efua Sign-off" });
    expect(await signedOff("first-day")).toBe(1);
  });

  it("records a printed sheet of a day that has begun, of a branch that exists; refuses a day to come and an unknown branch", async () => {
    const context = (requestId: string) => ({ staff: supervisor, scope: branchScopeFor(supervisor), requestId });
    await expect(recordSheetPrinted(db, context("printed-future"), { branchId: supervisor.branch.id, day: "2099-12-31" }, now)).rejects.toMatchObject({
      code: "VALIDATION",
      userMessage: FUTURE_SHEET_MESSAGE,
    });
    const headOffice = { ...supervisor, role: "head_office_supervisor" as const, permissions: permissionsOf("head_office_supervisor") };
    await expect(
      recordSheetPrinted(db, { staff: headOffice, scope: branchScopeFor(headOffice), requestId: "printed-unknown" }, { branchId: "00000000-0000-4000-8000-000000000000", day: "2026-11-19" }, now),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await signedOff("printed-future")) + (await signedOff("printed-unknown"))).toBe(0);
    await recordSheetPrinted(db, context("printed-today"), { branchId: supervisor.branch.id, day: "2026-11-20" }, now);
    expect(await signedOff("printed-today")).toBe(1);
  });

  it("signs off a day that has ended", async () => {
    await expect(signOff("2026-11-19", "ended")).resolves.toMatchObject({ signedAt: now.toISOString() });
    const [event] = await queryRows<{ action: string; details: { day: string } }>(db, sql`select action, details from audit_events where request_id = 'ended'`);
    expect(event).toMatchObject({ action: "review.reconciliation_signed_off", details: { day: "2026-11-19" } });
  });
}

forEachDatabase("sign-off", (driver) => defineSignOffTests(() => openScratchDatabase({ driver, name: "sign-off" })));
