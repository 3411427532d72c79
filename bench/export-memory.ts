/**
 * Export memory benchmark: how much a real app server (`next start`, the built app) grows while
 * it streams the masked CSV export of 200 000 tokens over HTTP. See bench/README.md.
 *
 * Seeds a scratch database (PGlite by default; a scratch database beside BENCH_DATABASE_URL when
 * given), adds the demo staff (scripts/db-seed.ts), starts the built app on it, signs in as the
 * head-office supervisor, warms the export route up with a small filtered export, then downloads
 * the full export — once at full speed, once through a slow reader (a client that cannot keep up
 * must not make the server buffer the file), and once more at full speed — sampling the server
 * process's VmRSS (and its kernel-kept peak, VmHWM) from /proc.
 *
 *   npm run bench:export                                   PGlite
 *   BENCH_DATABASE_URL=postgres://… npm run bench:export   PostgreSQL (needs CREATEDB)
 *   BENCH_TOKENS=50000 npm run bench:export                quicker
 *   BENCH_BUILD=1 npm run bench:export                     rebuild the app first
 *
 * Other settings: BENCH_APP_PORT (3300), BENCH_DIST_DIR (.next-export), BENCH_SLOW_KBPS (1024),
 * BENCH_KEEP=1 (keep the seeded database and print how to reuse it), BENCH_REUSE=<PGlite dir or
 * PostgreSQL URL> (a database kept before: no seeding, not removed), BENCH_SERVER_NODE_ARGS
 * (Node flags of the server alone, e.g. --trace-gc; BENCH_SERVER_LOG=<file> keeps its log).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { planDemoData, type DemoBranchPlan } from "@/scripts/demo-data/plan";
import { writeDemoData } from "@/scripts/demo-data/writer";
import { bankDayOf } from "@/lib/bank-time";
import { createScratchPglite, createScratchPostgres, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { demoAccount } from "@/lib/staff/demo-accounts";

const totalTokens = Number(process.env.BENCH_TOKENS ?? 200_000);
const appPort = Number(process.env.BENCH_APP_PORT ?? 3300);
const distDir = process.env.BENCH_DIST_DIR ?? ".next-export";
const slowBytesPerSecond = Number(process.env.BENCH_SLOW_KBPS ?? 1024) * 1024;
const budgetMb = 100;
const appUrl = `http://127.0.0.1:${appPort}`;
const keys = scratchPiiKeys();
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "veridesk-export-bench-"));
const serverLogPath = process.env.BENCH_SERVER_LOG ?? path.join(workDir, "app.log");

const townNames = ["Accra – Head Office", "Kumasi – Adum", "Takoradi – Market Circle", "Tamale – Central", "Cape Coast – Kotokuraba", "Ho – Main", "Koforidua – Jackson Park", "Sunyani – Fiapre", "Tema – Community 1", "Bolgatanga – Zuarungu", "Wa – Central", "Techiman – Market", "Obuasi – Central", "Nkawkaw – Station", "Winneba – High Street", "Madina – Zongo Junction", "Kasoa – Tollbooth", "Ashaiman – Main", "Hohoe – Central", "Axim – Harbour"];
const benchBranches: DemoBranchPlan[] = townNames.map((name, index) => ({ code: index === 0 ? "ACC" : index === 1 ? "KUM" : `B${String(index).padStart(2, "0")}`, name }));

const mb = (bytes: number) => bytes / 1024 / 1024;
const formatMb = (bytes: number) => `${mb(bytes).toFixed(1)} MB`;

// ─── The app build ──────────────────────────────────────────────────────────────────────────────

/**
 * Builds into our own dist folder when asked or missing. `next build` with a custom distDir adds
 * that folder to tsconfig.json; the file is put back as it was, so nothing of this run is committed.
 */
async function ensureBuild(): Promise<void> {
  const buildId = path.join(distDir, "BUILD_ID");
  if (fs.existsSync(buildId) && process.env.BENCH_BUILD !== "1") {
    const builtAt = fs.statSync(buildId).mtimeMs;
    const exportSources = ["app/api/review/export/route.ts", ...fs.readdirSync("lib/review").filter((name) => name.endsWith(".ts")).map((name) => path.join("lib/review", name))];
    if (exportSources.some((source) => fs.statSync(source).mtimeMs > builtAt)) {
      console.log(`Note: the export's sources changed since ${distDir} was built; BENCH_BUILD=1 rebuilds.`);
    }
    return;
  }
  console.log(`Building the app into ${distDir}…`);
  const tsconfig = fs.readFileSync("tsconfig.json", "utf8");
  try {
    await run(process.execPath, [nextBin(), "build"], { NEXT_DIST_DIR: distDir });
  } finally {
    fs.writeFileSync("tsconfig.json", tsconfig);
  }
}

function nextBin(): string {
  return path.join("node_modules", "next", "dist", "bin", "next");
}

function run(command: string, args: string[], extraEnv: Record<string, string> = {}, quiet = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: quiet ? "ignore" : "inherit", env: { ...process.env, ...extraEnv } });
    child.on("error", reject);
    child.on("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} ${args.join(" ")} ended with ${signal ?? `exit code ${code}`}`))));
  });
}

// ─── The database ───────────────────────────────────────────────────────────────────────────────

type Target = { label: string; connection: ScratchDatabase["connection"]; destroy(): Promise<void> };

async function prepareDatabase(): Promise<Target> {
  const reuse = process.env.BENCH_REUSE;
  if (reuse) {
    const connection = /^postgres(ql)?:\/\//.test(reuse) ? { databaseUrl: reuse } : { pgliteDataDir: reuse };
    console.log(`Reusing ${"databaseUrl" in connection ? "the PostgreSQL database" : "the PGlite directory"} given in BENCH_REUSE (not seeded, not removed).`);
    return { label: "databaseUrl" in connection ? "PostgreSQL" : "PGlite", connection, destroy: async () => undefined };
  }
  const scratch = process.env.BENCH_DATABASE_URL
    ? await createScratchPostgres(process.env.BENCH_DATABASE_URL, "veridesk_export_bench")
    : await createScratchPglite("veridesk-export-bench-");
  try {
    const plan = planDemoData({ now: new Date(), totalTokens, days: 180, branches: benchBranches, tellersPerBranch: 8 });
    let lastPrinted = 0;
    const report = await writeDemoData(scratch.opened.db, plan, {
      keys,
      withEvents: false,
      existingTellers: {},
      onProgress: (written, total) => {
        if (written - lastPrinted >= 50_000 || written === total) {
          console.log(`  ${scratch.label}: ${written.toLocaleString("en")} / ${total.toLocaleString("en")} tokens written`);
          lastPrinted = written;
        }
      },
    });
    await scratch.opened.db.execute(sql`analyze`);
    console.log(`  ${scratch.label}: seeded in ${(report.durationMs / 1000).toFixed(1)} s`);
    // The app server must be the only owner of a PGlite directory: this process lets go first.
    await scratch.opened.close();
    await run("npx", ["tsx", "--conditions=react-server", "scripts/db-seed.ts"], { ...databaseEnv(scratch.connection), APP_ENV: "test" }, true);
  } catch (error) {
    await scratch.destroy();
    throw error;
  }
  if (process.env.BENCH_KEEP === "1") {
    const location = "databaseUrl" in scratch.connection ? scratch.connection.databaseUrl : scratch.connection.pgliteDataDir;
    console.log(`  kept: BENCH_REUSE=${location}`);
    return { label: scratch.label, connection: scratch.connection, destroy: async () => undefined };
  }
  return scratch;
}

function databaseEnv(connection: Target["connection"]): Record<string, string> {
  return "databaseUrl" in connection ? { DATABASE_URL: connection.databaseUrl } : { DATABASE_URL: "", PGLITE_DATA_DIR: connection.pgliteDataDir };
}

// ─── The server ─────────────────────────────────────────────────────────────────────────────────

/**
 * `next start` itself (no npx or tsx between), so the child's pid is the server's and /proc tells
 * its memory. The watcher is off: it would poll the demo's open tokens against no service and
 * grow on its own; this measures the export alone.
 */
async function startApp(connection: Target["connection"]): Promise<ChildProcess> {
  const log = fs.openSync(serverLogPath, "a");
  // Diagnostics for the server alone, e.g. --trace-gc (its lines go to the server log).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, nextBin(), "start", "--port", String(appPort), "--hostname", "127.0.0.1"], {
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      ...process.env,
      ...databaseEnv(connection),
      NODE_ENV: "production",
      APP_ENV: "test",
      PORT: String(appPort),
      APP_URL: appUrl,
      NEXT_DIST_DIR: distDir,
      UPSTREAM_BASE_URL: "http://127.0.0.1:9",
      WATCHER_ENABLED: "false",
      // Info: the embedded database's first vacuum says so in the log (see waitForFirstVacuum).
      LOG_LEVEL: "info",
      PII_ENCRYPTION_KEY: keys.encryptionKey.toString("hex"),
      PII_INDEX_KEY: keys.indexKey.toString("hex"),
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the app server ended (exit code ${server.exitCode}); its log: ${serverLogPath}`);
    try {
      const response = await fetch(`${appUrl}/sign-in`);
      if (response.ok) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the app server did not answer within 120 s; its log: ${serverLogPath}`);
    await sleep(250);
  }
}

async function stopApp(server: ChildProcess): Promise<void> {
  if (server.pid === undefined || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  process.kill(-server.pid, "SIGTERM");
  const timer = setTimeout(() => server.pid && process.kill(-server.pid, "SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * On PGlite the app vacuums the database 15 s after start (lib/db/upkeep.ts): a vacuum of 200 000
 * rows grows the embedded database's memory once, for good. Waited for, so it is not counted as
 * the export's.
 */
async function waitForFirstVacuum(): Promise<string> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const log = fs.readFileSync(serverLogPath, "utf8");
    if (log.includes("embedded database vacuumed")) return "done";
    if (log.includes("vacuum failed")) return "failed, see the server log";
    if (Date.now() > deadline) return "not seen within 180 s";
    await sleep(500);
  }
}

async function signIn(): Promise<string> {
  const account = demoAccount("supervisor.hq");
  const response = await fetch(`${appUrl}/api/auth/sign-in/username`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: appUrl },
    body: JSON.stringify({ username: account.username, password: account.password }),
  });
  if (!response.ok) throw new Error(`sign-in of ${account.username} answered ${response.status}: ${await response.text()}`);
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}

// ─── Memory of the server process ──────────────────────────────────────────────────────────────

function readMemory(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** Resets the kernel's peak (VmHWM) to the current RSS, so it tells the peak of what follows. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

type Download = { status: number; rows: number; bytes: number; seconds: number };

/**
 * Downloads one export over plain HTTP. A slow reader pauses the response after every chunk for as
 * long as the given rate allows, so TCP's window closes and the server's writes must wait.
 */
function download(pathAndQuery: string, cookie: string, bytesPerSecond?: number): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(`${appUrl}${pathAndQuery}`, { headers: { cookie } }, (response) => {
      let bytes = 0;
      let lineBreaks = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lineBreaks++;
        if (bytesPerSecond) {
          const dueAt = started + (bytes / bytesPerSecond) * 1000;
          const wait = dueAt - performance.now();
          if (wait > 0) {
            response.pause();
            setTimeout(() => response.resume(), wait);
          }
        }
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, rows: Math.max(0, lineBreaks - 1), bytes, seconds: (performance.now() - started) / 1000 }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

type Measured = Download & { label: string; baseline: number; peak: number; after: number; hasKernelPeak: boolean };

async function measure(label: string, pid: number, run: () => Promise<Download>): Promise<Measured> {
  await sleep(1_000);
  const baseline = readMemory(pid).rss;
  const hasKernelPeak = resetPeak(pid);
  let sampledPeak = baseline;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, readMemory(pid).rss);
  }, 50);
  try {
    const result = await run();
    const memory = readMemory(pid);
    const peak = Math.max(sampledPeak, memory.rss, hasKernelPeak ? memory.hwm : 0);
    await sleep(1_000);
    return { ...result, label, baseline, peak, after: readMemory(pid).rss, hasKernelPeak };
  } finally {
    clearInterval(sampler);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ─── The run ────────────────────────────────────────────────────────────────────────────────────

await ensureBuild();
const target = await prepareDatabase();
let server: ChildProcess | undefined;
const stopEverything = async () => {
  if (server) await stopApp(server);
  await target.destroy();
  fs.rmSync(workDir, { recursive: true, force: true });
};
process.once("SIGINT", () => void stopEverything().finally(() => process.exit(130)));

try {
  console.log(`\n── ${target.label}: export memory of the app server (next start, ${distDir}) ── load average ${os.loadavg().map((value) => value.toFixed(1)).join(" ")} on ${os.cpus().length} cores`);
  server = await startApp(target.connection);
  const pid = server.pid!;
  console.log(`  server RSS: ${formatMb(readMemory(pid).rss)} ready`);
  if ("pgliteDataDir" in target.connection) {
    const vacuumed = await waitForFirstVacuum();
    console.log(`  server RSS: ${formatMb(readMemory(pid).rss)} after the embedded database's first vacuum (${vacuumed}; lib/db/upkeep.ts, not the export)`);
  }
  const beforeWarmUp = readMemory(pid).rss;
  const cookie = await signIn();
  // A few days of tokens (about a thousand rows): the route's code loads and its queries run once.
  const warmUp = await download(`/api/review/export?from=${bankDayOf(new Date(Date.now() - 2 * 86_400_000))}&to=${bankDayOf(new Date())}`, cookie);
  if (warmUp.status !== 200) throw new Error(`the warm-up export answered ${warmUp.status}; the server log: ${serverLogPath}`);
  await sleep(1_000);
  const warmed = readMemory(pid).rss;
  console.log(`  server RSS: ${formatMb(warmed)} after sign-in and a warm-up export of ${warmUp.rows.toLocaleString("en")} rows (+${formatMb(warmed - beforeWarmUp)}: the routes' code, first queries)`);

  const runs: Measured[] = [];
  runs.push(await measure("full export, full speed", pid, () => download("/api/review/export", cookie)));
  runs.push(await measure(`full export, slow reader (${Math.round(slowBytesPerSecond / 1024)} KB/s)`, pid, () => download("/api/review/export", cookie, slowBytesPerSecond)));
  runs.push(await measure("full export again, full speed", pid, () => download("/api/review/export", cookie)));

  const width = Math.max(...runs.map((measured) => measured.label.length));
  console.log(`\n${target.label}, ${totalTokens.toLocaleString("en")} tokens — server RSS per export (budget: growth < ${budgetMb} MB)`);
  console.log(`${"export".padEnd(width)}  ${"baseline".padStart(9)}  ${"peak".padStart(9)}  ${"growth".padStart(9)}  ${"since warm-up".padStart(13)}  ${"rows".padStart(8)}  ${"size".padStart(8)}  ${"seconds".padStart(7)}`);
  let isOverBudget = false;
  for (const measured of runs) {
    if (measured.status !== 200) throw new Error(`${measured.label} answered ${measured.status}`);
    const growth = measured.peak - measured.baseline;
    const sinceWarmUp = measured.peak - warmed;
    const over = mb(growth) >= budgetMb || mb(sinceWarmUp) >= budgetMb;
    isOverBudget ||= over;
    console.log(
      `${measured.label.padEnd(width)}  ${mb(measured.baseline).toFixed(1).padStart(9)}  ${mb(measured.peak).toFixed(1).padStart(9)}  ${`+${mb(growth).toFixed(1)}`.padStart(9)}  ${`+${mb(sinceWarmUp).toFixed(1)}`.padStart(13)}  ${measured.rows.toLocaleString("en").padStart(8)}  ${formatMb(measured.bytes).padStart(8)}  ${measured.seconds.toFixed(1).padStart(7)}${over ? "  ← over budget" : ""}`,
    );
  }
  console.log(`(MB; peak = max of 50 ms samples${runs.every((measured) => measured.hasKernelPeak) ? " and the kernel's VmHWM, reset before each export" : ""}; RSS after the last export: ${formatMb(runs.at(-1)!.after)})`);
  console.log(isOverBudget ? `\nSome exports grew the server by ${budgetMb} MB or more (marked above).` : `\nEvery export stayed within the ${budgetMb} MB budget.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  if (fs.existsSync(serverLogPath)) console.error(`\nThe server's log:\n${fs.readFileSync(serverLogPath, "utf8").slice(-4_000)}`);
  process.exitCode = 1;
} finally {
  await stopEverything();
}
