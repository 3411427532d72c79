import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { computeIdNumberIndex, decryptField } from "@/lib/pii";
import { demoFormulaReference, demoKnownCustomer, planDemoData, type DemoPlan } from "@/scripts/demo-data/plan";
import { writeDemoData } from "@/scripts/demo-data/writer";
import { permissionsOf } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/types";
import { exportAuditTrail, listAuditTrailPage } from "./audit-trail";
import { maskedExportHeader } from "./csv-columns";
import { exportFullIdTokens, exportMaskedTokens } from "./export";
import { computeFigures } from "./figures";
import { searchTokensByIdNumber } from "./id-search";
import { openReviewTokenDetail, revealIdNumber } from "./token-detail";
import { parseCsv } from "@/test/kit/csv";
import { buildReconciliation } from "./reconciliation";
import { defaultListQuery, type ReviewListQuery } from "./filters";
import { bankDayOf } from "@/lib/bank-time";
import { countLimit, listReviewTokens, listTokensByIdNumberIndex } from "./token-list";
import { readExportPages } from "./export-rows";
import { forEachDatabase, openScratchDatabase, queryRows, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";

/**
 * The review queries on the demo seed, on a scratch PGlite and (TEST_DATABASE_URL set) a scratch
 * PostgreSQL. Every figure is checked against an independent count written here in plain SQL.
 */

const now = new Date("2026-11-20T11:00:00.000Z");
const keys = scratchPiiKeys();
const all: BranchScope = { kind: "all" };

function defineReviewTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;
  let db: Database;
  let plan: DemoPlan;
  let branchIds: Map<string, string>;

  beforeAll(async () => {
    scratch = await createDatabase();
    db = scratch.opened.db;
    plan = planDemoData({ now, totalTokens: 3_000 });
    await writeDemoData(db, plan, { keys, withEvents: true });
    const rows = await queryRows<{ id: string; code: string }>(db, sql`select id, code from branches`);
    branchIds = new Map(rows.map((row) => [row.code, row.id]));
  }, 180_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  const count = async (where: string) => {
    const [result] = await queryRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from token_requests where ${where}`));
    return Number(result!.n);
  };
  const list = (query: Partial<ReviewListQuery>, scope: BranchScope = all) => listReviewTokens(db, scope, { ...defaultListQuery, size: 100, ...query }, keys);

  it("writes the demo plan once: a second run adds nothing", async () => {
    expect(await count("true")).toBe(3_000);
    const again = await writeDemoData(db, plan, { keys });
    expect(again.skipped).toBe(true);
    expect(await count("true")).toBe(3_000);
  });

  it("lists newest first, paged, with masked ID numbers only", async () => {
    const first = await list({ size: 25 });
    const second = await list({ size: 25, page: 2 });
    expect(first.total).toBe(3_000);
    expect(first.pageCount).toBe(120);
    expect(first.rows).toHaveLength(25);
    const times = [...first.rows, ...second.rows].map((row) => row.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set([...first.rows, ...second.rows].map((row) => row.id)).size).toBe(50);
    for (const row of first.rows) expect(row.maskedIdNumber).toMatch(/•/);
    expect(JSON.stringify(first)).not.toContain(demoKnownCustomer.idNumber);
  });

  it.each([
    ["state", { state: ["failed" as const] }, "live_state = 'failed'"],
    ["two states", { state: ["expired" as const, "invalid" as const] }, "live_state in ('expired', 'invalid')"],
    ["outcome unknown", { state: ["outcome_unknown" as const] }, "(live_state = 'outcome_unknown' or outcome in ('outcome_unknown', 'pending'))"],
    ["not issued", { state: ["not_issued" as const] }, "outcome in ('rejected', 'failed_upstream')"],
    ["kind", { kind: "remote" as const }, "kind = 'remote'"],
    ["ID type", { idType: "PASSPORT" as const }, "id_type = 'PASSPORT'"],
    ["date range", { from: "2026-11-10", to: "2026-11-12" }, "created_at >= '2026-11-10' and created_at < '2026-11-13'"],
  ])("filters by %s, exactly as an independent count", async (_name, filters, where) => {
    const page = await list(filters);
    const expected = await count(where);
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(3_000);
    expect(page.total).toBe(expected);
  });

  it("filters by the exact reference through its blind index, however the phone is typed (ADR 0023)", async () => {
    const stored = await queryRows<{ id: string; reference_encrypted: string }>(db, sql`select id, reference_encrypted from token_requests`);
    const expected = stored.filter((row) => decryptField(row.reference_encrypted, `token_requests.reference:${row.id}`, keys) === "0244000123").length;
    expect(expected).toBeGreaterThan(0);
    for (const typed of ["0244000123", "+233 24 400 0123", "024 400 0123"]) {
      const page = await list({ reference: typed });
      expect(page.total, typed).toBe(expected);
      expect(page.rows.every((row) => row.reference === "024 ••• 0123")).toBe(true);
    }
    expect((await list({ reference: "024" })).total).toBe(0);
  });

  it("filters by branch and teller, and a branch scope can never be widened", async () => {
    const kumasi = branchIds.get("KUM")!;
    const accra = branchIds.get("ACC")!;
    expect((await list({ branch: kumasi })).total).toBe(await count(`branch_id = '${kumasi}'`));
    const scoped = await list({ branch: accra }, { kind: "branch", branchId: kumasi });
    expect(scoped.total).toBe(await count(`branch_id = '${kumasi}'`));
    expect(scoped.rows.every((row) => row.branchId === kumasi)).toBe(true);
    const teller = scoped.rows[0]!.tellerId;
    expect((await list({ teller }, { kind: "branch", branchId: kumasi })).total).toBe(await count(`issued_by_user_id = '${teller}'`));
  });

  it("finds a token by its exact token value", async () => {
    const [sample] = (await list({ state: ["successful"], size: 25 })).rows;
    const found = await list({ token: sample!.token!.toLowerCase() });
    expect(found.rows.map((row) => row.id)).toEqual([sample!.id]);
  });

  it("sorts by every sort key without losing or repeating rows across pages", async () => {
    for (const sort of ["state", "reference", "duration"] as const) {
      for (const dir of ["asc", "desc"] as const) {
        const pages = await Promise.all([1, 2, 3].map((page) => list({ sort, dir, size: 25, page, state: ["successful", "failed"] })));
        const ids = pages.flatMap((page) => page.rows.map((row) => row.id));
        expect(new Set(ids).size, `${sort} ${dir}`).toBe(75);
      }
    }
  });

  it("finds the known customer by the blind index of the number, in any typed form, only in scope", async () => {
    const index = computeIdNumberIndex("gha 700000123 4", keys);
    const found = await listTokensByIdNumberIndex(db, all, index);
    expect(found).toHaveLength(demoKnownCustomer.tokenCount);
    const kumasi = await listTokensByIdNumberIndex(db, { kind: "branch", branchId: branchIds.get("KUM")! }, index);
    expect(kumasi).toHaveLength(demoKnownCustomer.tokenCount);
    expect(await listTokensByIdNumberIndex(db, { kind: "branch", branchId: branchIds.get("ACC")! }, index)).toHaveLength(0);
  });

  it("iterates every matching row once, in keyset batches, for the export", async () => {
    const seen = new Set<string>();
    for await (const page of readExportPages(db, all, { kind: "fingerprint" }, { pageSize: 97 })) for (const row of page) seen.add(row.id);
    expect(seen.size).toBe(await count("kind = 'fingerprint'"));
    const formula = [];
    for await (const page of readExportPages(db, all, { reference: demoFormulaReference }, { keys })) formula.push(...page.map((row) => row.reference));
    expect(formula).toEqual([demoFormulaReference]);
  });

  it("caps the count of a wide filter", async () => {
    expect(countLimit).toBeGreaterThan(3_000);
  });

  it("reconciles a branch's day: per teller, and the tokens that need following up", async () => {
    const kumasi = branchIds.get("KUM")!;
    const day = "2026-11-20";
    const sheet = await buildReconciliation(db, { kind: "branch", branchId: kumasi }, { day, branch: kumasi });
    const where = `branch_id = '${kumasi}' and created_at >= '${day}T00:00:00Z' and created_at < '2026-11-21T00:00:00Z'`;
    expect(sheet.total.requests).toBe(await count(where));
    expect(sheet.tellers.reduce((sum, teller) => sum + teller.issued, 0)).toBe(await count(`${where} and outcome = 'issued'`));
    expect(sheet.total.finished).toBe(await count(`${where} and live_state in ('successful', 'failed', 'expired', 'invalid')`));
    expect(sheet.followUp.map((row) => row.id).sort()).toEqual(
      (await queryRows<{ id: string }>(db, sql.raw(`select id from token_requests where ${where} and (live_state in ('outcome_unknown', 'waiting', 'in_progress', 'invalid') or outcome in ('outcome_unknown', 'pending'))`)))
        .map((row) => row.id)
        .sort(),
    );
    expect(sheet.followUp.length).toBeGreaterThan(0);
    await expect(buildReconciliation(db, { kind: "branch", branchId: branchIds.get("ACC")! }, { day, branch: kumasi })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  describe("customer data: search, reveal, exports, audit", () => {
    const staffOf = (role: "supervisor" | "head_office_supervisor", branchCode: string): Staff => ({
      userId: `test-${role}-${branchCode}`,
      username: `${role}.${branchCode.toLowerCase()}`,
      name: "Test Supervisor",
      role,
      branch: { id: branchIds.get(branchCode)!, code: branchCode, name: branchCode },
      permissions: permissionsOf(role),
      session: { id: "s", signInMethod: "password", idleExpiresAt: new Date(), absoluteExpiresAt: new Date() },
    });
    const kumasiScope = (): BranchScope => ({ kind: "branch", branchId: branchIds.get("KUM")! });

    it("searches by ID number typed any way, audits the search without the number", async () => {
      const staff = staffOf("supervisor", "KUM");
      const found = await searchTokensByIdNumber(db, keys, { staff, scope: kumasiScope(), requestId: "r1" }, { idType: "GHANA_CARD", idNumber: "700000123-4" });
      expect(found.rows).toHaveLength(demoKnownCustomer.tokenCount);
      const audits = await queryRows<{ details: unknown }>(db, sql`select details from audit_events where action = 'review.id_number_searched' and request_id = 'r1'`);
      expect(audits).toHaveLength(1);
      expect(JSON.stringify(audits)).not.toContain("700000123");
      await expect(
        searchTokensByIdNumber(db, keys, { staff, scope: kumasiScope(), requestId: "r2" }, { idType: "GHANA_CARD", idNumber: "12345" }),
      ).rejects.toMatchObject({ code: "VALIDATION" });
    });

    it("opens a token with its history, reveals the number only with its audit record, and refuses other branches", async () => {
      const staff = staffOf("supervisor", "KUM");
      const [row] = (await list({ branch: branchIds.get("KUM")!, state: ["successful"], size: 25 })).rows;
      const detail = await openReviewTokenDetail(db, { staff, scope: kumasiScope() }, row!.id);
      expect(detail.events.map((event) => event.type)).toEqual(["issue.requested", "issue.issued", "state_changed", "state_changed"]);
      const revealed = await revealIdNumber(db, keys, { staff, scope: kumasiScope(), requestId: "r3" }, { tokenRequestId: row!.id, reason: "Customer dispute 4471" });
      expect(revealed.idNumber).toMatch(/\d{3}/);
      const again = await openReviewTokenDetail(db, { staff, scope: kumasiScope() }, row!.id);
      expect(again.access.map((event) => event.action)).toEqual(["token.viewed_by_supervisor", "token.id_revealed", "token.viewed_by_supervisor"]);
      expect(again.access[1]!.reason).toBe("Customer dispute 4471");
      const accraStaff = staffOf("supervisor", "ACC");
      const accraScope: BranchScope = { kind: "branch", branchId: branchIds.get("ACC")! };
      await expect(openReviewTokenDetail(db, { staff: accraStaff, scope: accraScope }, row!.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(revealIdNumber(db, keys, { staff: accraStaff, scope: accraScope, requestId: "r4" }, { tokenRequestId: row!.id, reason: "Just curious about it" })).rejects.toMatchObject({ code: "NOT_FOUND" });
      expect(await count(`id = '${row!.id}'`)).toBe(1);
    });

    it("sends a fingerprint attempt whose answer never arrived to a new token, and a remote one that sent its SMS to the customer's SMS", async () => {
      const staff = staffOf("head_office_supervisor", "ACC");
      // Attempts without a token (a token on record was used and its result never came back).
      const fingerprint = (await list({ kind: "fingerprint", state: ["outcome_unknown"] })).rows.find((row) => row.token === null);
      const detail = await openReviewTokenDetail(db, { staff, scope: all }, fingerprint!.id);
      expect(detail.token.isLinkSent).toBe(false);
      expect(detail.token.failureReason).toContain("No SMS or e-mail was sent for this attempt, so the customer has no token to read out. Next step: if the customer still needs verifying, issue a new token");
      expect(detail.token.failureReason).not.toMatch(/token in their SMS/);
      // The list (and the CSV, from the same columns) tells it the same way.
      expect(fingerprint!.failureReason).toBe(detail.token.failureReason);
      const remote = (await list({ kind: "remote", state: ["outcome_unknown"] })).rows.find((row) => row.token === null);
      const remoteDetail = await openReviewTokenDetail(db, { staff, scope: all }, remote!.id);
      expect(remoteDetail.token.isLinkSent).toBe(true);
      expect(remoteDetail.token.failureReason).toMatch(/ask the customer for the token in their SMS or e-mail/);
      expect(remote!.failureReason).toBe(remoteDetail.token.failureReason);
    });

    it("exports the filtered list masked, with the header, BOM and formula neutralised", async () => {
      const staff = staffOf("head_office_supervisor", "ACC");
      const response = await exportMaskedTokens(db, { staff, scope: all, requestId: "r5" }, {});
      // Response.text() would drop the BOM (fetch's UTF-8 decode does): read the bytes.
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
      const [header, ...rows] = parseCsv(text);
      expect(header).toEqual(maskedExportHeader);
      expect(rows).toHaveLength(3_000);
      expect(text).not.toContain(demoKnownCustomer.idNumber);
      const reference = header!.indexOf("Reference");
      expect(rows.filter((cells) => cells[reference] === `'${demoFormulaReference}`)).toHaveLength(1);
      const full = await exportFullIdTokens(db, keys, { staff, scope: all, requestId: "r6" }, { reference: demoFormulaReference }, "Compliance request 2026/114");
      const [fullHeader, ...fullRows] = parseCsv(await full.text());
      expect(fullHeader).toContain("ID number (full)");
      expect(fullRows).toHaveLength(1);
      const audits = await queryRows<{ action: string }>(db, sql`select action from audit_events where request_id in ('r5', 'r6') order by id`);
      expect(audits.map((audit) => audit.action)).toEqual(["review.exported", "review.exported_full_ids"]);
    });

    it("lists and exports the audit trail by staff member, action and day, within the scope", async () => {
      const kumasiStaff = staffOf("supervisor", "KUM");
      const page = await listAuditTrailPage(db, kumasiStaff, { action: "token.viewed_by_supervisor" }, 1, 10);
      expect(page.total).toBeGreaterThan(0);
      expect(page.events.every((event) => event.action === "token.viewed_by_supervisor" && event.branchCode === "KUM")).toBe(true);
      const today = bankDayOf(new Date());
      expect((await listAuditTrailPage(db, kumasiStaff, { from: "2000-01-01", to: "2000-01-02" }, 1, 10)).total).toBe(0);
      expect((await listAuditTrailPage(db, kumasiStaff, { staffUserId: kumasiStaff.userId, from: today, to: today }, 1, 10)).total).toBeGreaterThan(0);
      const response = await exportAuditTrail(db, { staff: kumasiStaff, requestId: "r7" }, { staffUserId: kumasiStaff.userId });
      const [header, ...rows] = parseCsv(await response.text());
      expect(header![0]).toBe("When (Accra time)");
      expect(rows.length).toBeGreaterThan(2);
      expect(rows.every((cells) => cells[1] === kumasiStaff.username)).toBe(true);
    });
  });

  describe("figures", () => {
    const from = "2026-10-22";
    const to = "2026-11-20";
    const independent = async (where: string) => {
      const [result] = await queryRows<Record<string, number>>(
        db,
        sql.raw(`
          select
            count(*)::int as requests,
            sum(case when outcome = 'issued' then 1 else 0 end)::int as issued,
            sum(case when live_state = 'successful' then 1 else 0 end)::int as successful,
            sum(case when live_state = 'failed' then 1 else 0 end)::int as failed,
            sum(case when live_state = 'expired' then 1 else 0 end)::int as expired,
            sum(case when live_state = 'invalid' then 1 else 0 end)::int as invalid,
            sum(case when live_state = 'outcome_unknown' or outcome in ('outcome_unknown', 'pending') then 1 else 0 end)::int as outcome_unknown,
            sum(case when live_state in ('waiting', 'in_progress') then 1 else 0 end)::int as open,
            sum(case when outcome in ('rejected', 'failed_upstream') then 1 else 0 end)::int as not_issued
          from token_requests
          where created_at >= '${from}T00:00:00Z' and created_at < '2026-11-21T00:00:00Z' and ${where}`),
      );
      return result!;
    };
    const durations = async (where: string) => {
      const result = await queryRows<{ s: number }>(
        db,
        sql.raw(`select extract(epoch from result_at - issued_at)::float8 as s from token_requests
                 where result_status is not null and created_at >= '${from}T00:00:00Z' and created_at < '2026-11-21T00:00:00Z' and ${where}`),
      );
      return result.map((row) => Number(row.s)).sort((a, b) => a - b);
    };
    // Linear interpolation between closest ranks, as percentile_cont defines it.
    const percentile = (sorted: number[], fraction: number) => {
      const position = (sorted.length - 1) * fraction;
      const lower = Math.floor(position);
      const upper = Math.ceil(position);
      return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
    };

    it("per branch: every count, the success rate and the time percentiles match", async () => {
      const report = await computeFigures(db, all, { from, to, groupBy: "branch" });
      expect(report.groups).toHaveLength(plan.branches.length);
      for (const group of report.groups) {
        const where = `branch_id = '${group.key}'`;
        const expected = await independent(where);
        expect(group).toMatchObject({
          requests: expected.requests,
          issued: expected.issued,
          successful: expected.successful,
          failed: expected.failed,
          expired: expected.expired,
          invalid: expected.invalid,
          outcomeUnknown: expected.outcome_unknown,
          open: expected.open,
          notIssued: expected.not_issued,
        });
        const finalCount = expected.successful! + expected.failed! + expected.expired! + expected.invalid! + expected.outcome_unknown!;
        // Outcome unknown at issuance has no token: it is not part of the rate's denominator.
        const unknownAtIssue = await count(`branch_id = '${group.key}' and outcome in ('outcome_unknown', 'pending') and created_at >= '${from}' and created_at < '2026-11-21'`);
        expect(group.successRate).toBeCloseTo(expected.successful! / (finalCount - unknownAtIssue), 10);
        const seconds = await durations(where);
        expect(group.medianSecondsToResult).toBe(Math.round(percentile(seconds, 0.5)));
        expect(group.p90SecondsToResult).toBe(Math.round(percentile(seconds, 0.9)));
      }
      const total = await independent("true");
      expect(report.total.requests).toBe(total.requests);
      expect(report.total.successful).toBe(total.successful);
      expect(report.groups.reduce((sum, group) => sum + group.requests, 0)).toBe(total.requests);
    });

    it("per teller and per day add up to the same totals", async () => {
      const byTeller = await computeFigures(db, all, { from, to, groupBy: "teller" });
      const byDay = await computeFigures(db, all, { from, to, groupBy: "day" });
      expect(byTeller.total).toEqual(byDay.total);
      expect(byTeller.groups.every((group) => group.label && group.sublabel)).toBe(true);
      const kumasiTellers = await computeFigures(db, { kind: "branch", branchId: branchIds.get("KUM")! }, { from, to, groupBy: "teller" });
      expect(kumasiTellers.groups.every((group) => group.label && !group.sublabel)).toBe(true);
      for (const group of byTeller.groups.slice(0, 4)) {
        const [tellerId, branchId] = group.key.split("|");
        expect(group.issued).toBe((await independent(`issued_by_user_id = '${tellerId}' and branch_id = '${branchId}'`)).issued);
      }
      const day = byDay.groups.find((group) => group.key === bankDayOf(new Date("2026-11-18T12:00:00Z")))!;
      expect(day.requests).toBe(await count("created_at >= '2026-11-18T00:00:00Z' and created_at < '2026-11-19T00:00:00Z'"));
    });

    it("a branch supervisor's figures hold only their branch, whatever branch they ask for", async () => {
      const kumasi = branchIds.get("KUM")!;
      const report = await computeFigures(db, { kind: "branch", branchId: kumasi }, { from, to, groupBy: "branch", branch: branchIds.get("ACC")! });
      expect(report.groups.map((group) => group.key)).toEqual([kumasi]);
      expect(report.total.requests).toBe((await independent(`branch_id = '${kumasi}'`)).requests);
    });
  });
}

forEachDatabase("review queries", (driver) => defineReviewTests(() => openScratchDatabase({ driver, name: "review" })));
