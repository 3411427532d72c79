import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * The export's memory, guarded without timing anything (ADR 0013; the figures are in
 * bench/export-memory.ts): through the real route handler on a fresh embedded database, the
 * export reads the database in keyset pages of at most `exportPageSize` rows, and only when the
 * client reads — a client that stops reading, or goes away, causes no further query. Then the
 * keyset itself: every row once, across pages cut between rows of the same microsecond.
 */

// Before any app module reads the settings (lib/logger reads them at import).
await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("export");
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { getAuth } = await import("@/lib/auth/server");
const { appUrl } = await import("@/lib/env");
const staffService = await import("@/lib/staff/accounts");
const staffBranches = await import("@/lib/staff/branches");
const { GET } = await import("@/app/api/review/export/route");
const { planDemoData } = await import("@/scripts/demo-data/plan");
const { writeDemoData } = await import("@/scripts/demo-data/writer");
const { exportPageSize, readExportPages } = await import("./export-rows");
const { parseCsv } = await import("@/test/kit/csv");
const { openScratchDatabase, queryRows, scratchPiiKeys } = await import("@/test/kit/database");

type Database = Awaited<ReturnType<typeof getDb>>;

const totalTokens = 1_300;
const PASSWORD = "export-memory-test-password";
let cookie: string;

/** The export's page queries seen by the embedded database, with the rows each returned. */
const pageQueries: { limit: unknown; rows: number }[] = [];

beforeAll(async () => {
  const db = await getDb();
  const branch = await staffBranches.createBranch(await getDb(), { system: "test" }, { code: "ACC", name: "Accra – Head Office" });
  await staffService.createStaffAccount(
    await getDb(),
    { system: "test" },
    { username: "export.hq", name: "Export Test", role: "head_office_supervisor", branchId: branch.id, password: PASSWORD },
  );
  const plan = planDemoData({ now: new Date("2026-11-20T11:00:00.000Z"), totalTokens });
  await writeDemoData(db, plan, { keys: scratchPiiKeys(), withEvents: false, existingTellers: {} });

  const auth = await getAuth();
  const response = await auth.handler(
    new Request(`${appUrl()}/api/auth/sign-in/username`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: appUrl() },
      body: JSON.stringify({ username: "export.hq", password: PASSWORD }),
    }),
  );
  cookie = /(veridesk\.session_token=[^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1] ?? "";
  expect(cookie, `sign-in answered ${response.status}`).not.toBe("");

  // Every query of the process goes through this PGlite; the export's are its keyset pages.
  const client = (db as unknown as { $client: PGlite }).$client;
  const query = client.query.bind(client);
  vi.spyOn(client, "query").mockImplementation(async (text: string, params?: unknown[], options?: object) => {
    const result = await query(text, params, options);
    if (/from "token_requests" inner join "branches"/.test(text) && /order by "token_requests"."created_at" desc, "token_requests"."id" desc limit \$\d+$/.test(text)) {
      pageQueries.push({ limit: params?.at(-1), rows: result.rows.length });
    }
    return result;
  });
}, 180_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await closeDb();
  removeScratchProcessDatabase();
});

function exportRequest(query = ""): Promise<Response> {
  return GET(new Request(`${appUrl()}/api/review/export${query}`, { headers: { cookie } }), { params: Promise.resolve({}) });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe("the export route's reads", () => {
  it("reads the whole filtered list in keyset pages of at most the page size", async () => {
    pageQueries.length = 0;
    const response = await exportRequest();
    expect(response.status).toBe(200);
    const [, ...rows] = parseCsv(await response.text());
    expect(rows).toHaveLength(totalTokens);
    // Pages up to 1 000 rows were measured flat in bench/export-memory.ts; more is unmeasured.
    expect(exportPageSize).toBeLessThanOrEqual(1_000);
    expect(pageQueries.length).toBe(Math.floor(totalTokens / exportPageSize) + 1);
    expect(pageQueries.every((page) => page.limit === exportPageSize && page.rows <= exportPageSize)).toBe(true);
    expect(pageQueries.reduce((sum, page) => sum + page.rows, 0)).toBe(totalTokens);
  });

  it("reads the next page only when the client reads, and nothing after it stops or goes away", async () => {
    pageQueries.length = 0;
    const response = await exportRequest();
    const reader = response.body!.getReader();
    await settle();
    // Nothing is read ahead of the client: not even the first page before the first read.
    expect(pageQueries).toHaveLength(0);
    await reader.read(); // the BOM and header
    await settle();
    expect(pageQueries).toHaveLength(0);
    await reader.read();
    await reader.read();
    await settle();
    expect(pageQueries).toHaveLength(2);
    // A client that stops reading holds the export where it is.
    await settle();
    expect(pageQueries).toHaveLength(2);
    // One that goes away ends it: no further query.
    await reader.cancel();
    await settle();
    expect(pageQueries).toHaveLength(2);
  });
});

function defineKeysetTests(label: string, openDatabase: () => Promise<{ db: Database; close(): Promise<void> }>) {
  describe(`the export's keyset on ${label}`, () => {
    let db: Database;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ db, close } = await openDatabase());
      // Microsecond times, and three rows of the very same instant, where a page boundary falls.
      await db.execute(sql`
        with newest as (select id, row_number() over (order by created_at desc, id desc) as n from token_requests order by created_at desc, id desc limit 8)
        update token_requests set created_at = case
          when newest.n <= 3 then '2026-11-21 09:00:00.123456+00'::timestamptz
          else '2026-11-21 08:59:59.999999+00'::timestamptz - (newest.n * interval '1 microsecond') end
        from newest where token_requests.id = newest.id`);
    }, 180_000);

    afterAll(async () => {
      await close?.();
    });

    it("hands every row once, newest first, whatever the page size", async () => {
      const expected = (await queryRows<{ id: string }>(db, sql`select id from token_requests order by created_at desc, id desc`)).map((row) => row.id);
      for (const pageSize of [2, 7, 250]) {
        const seen: string[] = [];
        for await (const page of readExportPages(db, { kind: "all" }, {}, { pageSize })) {
          expect(page.length).toBeLessThanOrEqual(pageSize);
          seen.push(...page.map((row) => row.id));
        }
        expect(seen).toEqual(expected);
      }
    });

    it("gives times as the epoch milliseconds a JS Date reads from PostgreSQL's text", async () => {
      const texts = await queryRows<{ id: string; created: string; issued: string | null }>(
        db,
        sql`select id, created_at::text as created, issued_at::text as issued from token_requests`,
      );
      const byId = new Map(texts.map((row) => [row.id, row]));
      for await (const page of readExportPages(db, { kind: "all" }, {})) {
        for (const row of page) {
          const text = byId.get(row.id)!;
          expect(row.createdAtMs).toBe(new Date(text.created).getTime());
          expect(row.issuedAtMs).toBe(text.issued === null ? null : new Date(text.issued).getTime());
        }
      }
    });
  });
}

defineKeysetTests("PGlite", async () => ({ db: await getDb(), close: async () => undefined }));

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
describe.runIf(Boolean(testDatabaseUrl))("on PostgreSQL", () => {
  defineKeysetTests("PostgreSQL", async () => {
    const scratch = await openScratchDatabase({ driver: "postgres", name: "export" });
    const plan = planDemoData({ now: new Date("2026-11-20T11:00:00.000Z"), totalTokens: 600 });
    await writeDemoData(scratch.opened.db, plan, { keys: scratchPiiKeys(), withEvents: false, existingTellers: {} });
    return { db: scratch.opened.db, close: () => scratch.destroy() };
  });
});
