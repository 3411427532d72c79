import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { pages, routes, type Audience } from "./access-matrix";
import { e2eMetricsToken } from "./support/metrics-token";
import { demoAccounts, type DemoUsername } from "@/lib/staff/demo-accounts";
import type { StaffRole } from "@/lib/domain/staff-roles";

/**
 * No GET writes anything: every page and every GET route of the access matrix, requested by every
 * role allowed to open it and signed out, leaves the database as it was, but for the writes a read
 * is meant to make (READ_WRITES below). A change of state belongs in a server action or a POST.
 *
 * The suite's app owns its embedded database (one owner at a time, lib/db/pglite-lock.ts), so this
 * spec runs an app of its own on its own data directory and port, and reads the database only
 * while that app is stopped: (1) start with the seed, sign each role in, stop, snapshot; (2) start,
 * GET everything, stop, snapshot; the two snapshots differ by the allowed writes alone. Run (1) is
 * a whole start and stop of the same app, so whatever a start or a stop writes by itself is in the
 * baseline already (a start that wrote anything new the second time would show as a write: one
 * start fewer makes the test stricter, not weaker).
 * The watcher and the retention job are off in this app: they write on their own schedule, and a
 * poll landing between the snapshots would look like a write of a GET.
 */

const port = Number(process.env.E2E_APP_PORT ?? 3100) + 3;
const appUrl = `http://127.0.0.1:${port}`;
const workDir = mkdtempSync(path.join(tmpdir(), "veridesk-e2e-no-get-writes-"));
const dataDir = path.join(workDir, "pglite");

/** The writes a read may make, and nothing else. */
const READ_WRITES = {
  /** The audit trail's read records: who opened, revealed, searched, exported or produced what. */
  auditActions: new Set([
    "token.viewed_by_supervisor",
    "token.id_revealed",
    "review.id_number_searched",
    "review.exported",
    "audit.exported",
    "review.reconciliation_printed",
    "customer.record_produced",
  ]),
  /** The watcher's view marks: someone is looking at this open token, so poll it soon (lib/watcher/viewers.ts). */
  tokenRequestColumns: new Set(["last_viewed_at", "next_poll_at"]),
  /** A session's activity, which pushes its idle expiry on (lib/auth/session.ts); better-auth's own refresh is off. */
  sessionColumns: new Set(["last_active_at", "updated_at"]),
};

/** One demo account per role: the requests of each role come from its session. */
const accountOfRole: Record<StaffRole, DemoUsername> = {
  teller: "teller.kumasi",
  supervisor: "supervisor.kumasi",
  head_office_supervisor: "supervisor.hq",
  admin: "admin",
};

function appEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    APP_ENV: "test",
    PORT: String(port),
    APP_URL: appUrl,
    UPSTREAM_BASE_URL: process.env.SANDBOX_URL,
    PGLITE_DATA_DIR: dataDir,
    SERVER_LOG_FILE: path.join(workDir, "app.log"),
    METRICS_TOKEN: e2eMetricsToken,
    WATCHER_ENABLED: "false",
    RETENTION_JOB_ENABLED: "false",
    E2E_SEED_DEMO: "",
  };
}

/**
 * The first start goes through serve-app (migrations, demo seed, live fixtures); later ones start
 * `next start` alone, since the fixtures' seed runs the retention job, which writes. Kept-alive
 * connections outlive the client's as in serve-app, or a reused one may be closed under a request.
 */
async function startApp(options: { withSeed: boolean }): Promise<ChildProcess> {
  const log = openSync(path.join(workDir, "app.out"), "a");
  const [command, args] = options.withSeed
    ? ["npx", ["tsx", "--conditions=react-server", "scripts/serve-app.ts"]]
    : [process.execPath, ["node_modules/next/dist/bin/next", "start", "--port", String(port), "--hostname", "127.0.0.1", "--keepAliveTimeout", "65000"]];
  const app = spawn(command, args, { detached: true, stdio: ["ignore", log, log], env: appEnv() });
  running = app;
  await expect
    .poll(async () => (await fetch(`${appUrl}/api/health/live`).catch(() => null))?.status ?? 0, { timeout: 120_000, intervals: [250] })
    .toBe(200);
  return app;
}

/** SIGTERM to the app's group, then waits for its exit and for the database lock to be given back. */
async function stopApp(app: ChildProcess): Promise<void> {
  if (app.exitCode === null && app.signalCode === null) {
    const exited = new Promise((resolve) => app.once("exit", resolve));
    process.kill(-app.pid!, "SIGTERM");
    await exited;
  }
  running = undefined;
  await expect.poll(() => existsSync(`${dataDir}.lock`), { timeout: 20_000, message: "the app left its PGlite lock behind" }).toBe(false);
}

let running: ChildProcess | undefined;

// A failed start or a failed step must not leave the app running with the port and the lock.
test.afterAll(async () => {
  if (running) await stopApp(running);
});

type TableSnapshot = { rows: Map<string, { hash: string; row: Record<string, unknown> }> };
type Snapshot = Map<string, TableSnapshot>;

/** Every table of the stopped app's database: each row by its primary key, with a hash of its contents. */
async function snapshot(): Promise<Snapshot> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(dataDir);
  try {
    const tables = await db.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
    );
    const result: Snapshot = new Map();
    for (const { schema, name } of tables.rows) {
      const qualified = `"${schema}"."${name}"`;
      const keys = await db.query<{ column: string }>(
        `select a.attname as column from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
         where i.indrelid = $1::regclass and i.indisprimary order by a.attnum`,
        [qualified],
      );
      const keyColumns = keys.rows.map((key) => key.column);
      const rows = new Map<string, { hash: string; row: Record<string, unknown> }>();
      for (const { row } of (await db.query<{ row: Record<string, unknown> }>(`select to_jsonb(t) as row from ${qualified} t`)).rows) {
        const contents = JSON.stringify(row);
        const hash = createHash("sha256").update(contents).digest("hex");
        // A table without a primary key is told apart by its rows' contents alone.
        const key = keyColumns.length > 0 ? keyColumns.map((column) => `${column}=${String(row[column])}`).join(",") : `hash=${hash.slice(0, 12)}`;
        rows.set(key, { hash, row });
      }
      result.set(schema === "public" ? name : `${schema}.${name}`, { rows });
    }
    return result;
  } finally {
    await db.close();
  }
}

/** Every difference between two snapshots that is not an allowed write of a read, in words. */
function forbiddenWrites(before: Snapshot, after: Snapshot): string[] {
  const found: string[] = [];
  const brief = (row: Record<string, unknown>) => JSON.stringify(row).slice(0, 300);
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(table)?.rows ?? new Map();
    const is = after.get(table)?.rows ?? new Map();
    for (const [key, { row }] of is) {
      if (was.has(key)) continue;
      if (table === "audit_events" && READ_WRITES.auditActions.has(String(row.action))) continue;
      found.push(`${table} row ${key} added: ${brief(row)}`);
    }
    for (const [key, { row }] of was) {
      if (!is.has(key)) found.push(`${table} row ${key} deleted: ${brief(row)}`);
    }
    for (const [key, now] of is) {
      const then = was.get(key);
      if (!then || then.hash === now.hash) continue;
      const changed = Object.keys({ ...then.row, ...now.row }).filter((column) => JSON.stringify(then.row[column]) !== JSON.stringify(now.row[column]));
      const allowed = table === "token_requests" ? READ_WRITES.tokenRequestColumns : table === "auth_sessions" ? READ_WRITES.sessionColumns : new Set<string>();
      const forbidden = changed.filter((column) => !allowed.has(column));
      if (forbidden.length === 0) continue;
      found.push(`${table} row ${key} changed: ${forbidden.map((column) => `${column} ${JSON.stringify(then.row[column])} → ${JSON.stringify(now.row[column])}`).join("; ")}`);
    }
  }
  return found;
}

/** Who may send a GET to an entry: each allowed role's account, and signed out (null) always. */
function requesters(audience: Audience): (DemoUsername | null)[] {
  if (audience.kind === "public") return [null];
  return [null, ...audience.roles.map((role) => accountOfRole[role])];
}

test("no page and no GET route writes to the database, but for the audit trail's read records and view marks", async () => {
  test.setTimeout(240_000);
  const sessions = new Map<DemoUsername, Awaited<ReturnType<APIRequestContext["storageState"]>>>();

  // (1) Seeded, and each role signed in: sign-in writes (a session, an audit event), so it comes
  // first. Its start and stop make what a start and a stop write by themselves part of the baseline.
  let app = await startApp({ withSeed: true });
  try {
    for (const username of new Set(Object.values(accountOfRole))) {
      const account = demoAccounts.find((candidate) => candidate.username === username)!;
      const context = await playwrightRequest.newContext({ baseURL: appUrl });
      const response = await context.post("/api/auth/sign-in/username", { data: { username, password: account.password }, headers: { origin: appUrl } });
      expect(response.status(), `sign-in of ${username}: ${await response.text()}`).toBe(200);
      sessions.set(username, await context.storageState());
      await context.dispose();
    }
  } finally {
    await stopApp(app);
  }

  const before = await snapshot();

  // Pages of one token are opened on real tokens too, by every allowed role: one of each branch,
  // an open one where there is (the pages that mark it watched write its view mark).
  const tokenRows = [...before.get("token_requests")!.rows.values()].map(({ row }) => row);
  const isOpen = (row: Record<string, unknown>) => row.outcome === "issued" && row.finished_at === null;
  const tokenIds = [...new Set(tokenRows.map((row) => String(row.branch_id)))].map((branch) => {
    const ofBranch = tokenRows.filter((row) => String(row.branch_id) === branch);
    return String((ofBranch.find(isOpen) ?? ofBranch[0])!.id);
  });
  expect(tokenIds.length, "the live fixtures seed tokens").toBeGreaterThan(0);

  // (2) Every GET, by everyone who may send it.
  const visits: { url: string; as: DemoUsername | null }[] = [];
  for (const entry of pages) {
    const urls = [entry.url, ...(entry.urlOfTokenRequest ? tokenIds.map(entry.urlOfTokenRequest) : [])];
    for (const as of requesters(entry.audience)) for (const url of urls) visits.push({ url, as });
  }
  for (const entry of routes) {
    if (!entry.methods.GET) continue;
    const urls = [entry.url, ...(entry.urlOfTokenRequest ? tokenIds.map(entry.urlOfTokenRequest) : [])];
    for (const as of requesters(entry.methods.GET)) for (const url of urls) visits.push({ url, as });
  }
  app = await startApp({ withSeed: false });
  try {
    const contexts = new Map<DemoUsername | null, APIRequestContext>();
    for (const as of new Set(visits.map((visit) => visit.as))) {
      contexts.set(as, await playwrightRequest.newContext({ baseURL: appUrl, storageState: as ? sessions.get(as) : undefined }));
    }
    // Four at a time: the spec stays within a minute, and nothing here depends on the order.
    const queue = [...visits];
    const sendNext = async (): Promise<void> => {
      for (let visit = queue.shift(); visit; visit = queue.shift()) {
        const headers = visit.url.startsWith("/api/metrics") ? { authorization: `Bearer ${e2eMetricsToken}` } : undefined;
        const response = await contexts.get(visit.as)!.get(visit.url, { headers });
        expect(response.status(), `GET ${visit.url} as ${visit.as ?? "signed out"}`).toBeLessThan(500);
      }
    };
    await Promise.all([sendNext(), sendNext(), sendNext(), sendNext()]);
    for (const context of contexts.values()) await context.dispose();
    // View marks of polled tokens are written within a second (lib/watcher/viewers.ts): let them land.
    await sleep(1_500);
  } finally {
    await stopApp(app);
  }
  const after = await snapshot();

  const writes = forbiddenWrites(before, after);
  expect(writes, `GET requests (${visits.length}) wrote to the database:\n${writes.join("\n")}`).toEqual([]);
});
