/**
 * Review benchmark: seeds 200 000 tokens into a scratch PGlite (and, with BENCH_DATABASE_URL, a
 * scratch database beside that PostgreSQL), then times the supervisor's list query for each
 * filter, the figures queries and the reconciliation, and streams the full CSV export while
 * watching the process's memory. See bench/README.md.
 *
 *   npm run bench                      PGlite only
 *   BENCH_DATABASE_URL=postgres://… npm run bench
 *   BENCH_TOKENS=50000 BENCH_RUNS=20 npm run bench
 *   BENCH_TARGETS=postgres BENCH_DATABASE_URL=… npm run bench    (one database per process)
 */
import os from "node:os";
import { sql } from "drizzle-orm";
import { Readable, Writable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { pipeline } from "node:stream/promises";
import type { BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { computeIdNumberIndex } from "@/lib/pii";
import { maskedExportColumns } from "@/lib/review/csv-columns";
import { csvPagedWebStream } from "@/lib/review/csv";
import { readExportPages } from "@/lib/review/export-rows";
import { demoKnownCustomer, planDemoData, type DemoBranchPlan } from "@/scripts/demo-data/plan";
import { writeDemoData } from "@/scripts/demo-data/writer";
import { computeFigures } from "@/lib/review/figures";
import { defaultListQuery, type ReviewListQuery } from "@/lib/review/filters";
import { buildReconciliation } from "@/lib/review/reconciliation";
import { bankDayOf } from "@/lib/bank-time";
import { listReviewTokens, listTokensByIdNumberIndex } from "@/lib/review/token-list";
import { createScratchPglite, createScratchPostgres, queryRows, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";

const totalTokens = Number(process.env.BENCH_TOKENS ?? 200_000);
const runs = Number(process.env.BENCH_RUNS ?? 30);
const warmups = 3;
const goalMs = 150;
const now = new Date();
const keys = scratchPiiKeys();

const townNames = ["Accra – Head Office", "Kumasi – Adum", "Takoradi – Market Circle", "Tamale – Central", "Cape Coast – Kotokuraba", "Ho – Main", "Koforidua – Jackson Park", "Sunyani – Fiapre", "Tema – Community 1", "Bolgatanga – Zuarungu", "Wa – Central", "Techiman – Market", "Obuasi – Central", "Nkawkaw – Station", "Winneba – High Street", "Madina – Zongo Junction", "Kasoa – Tollbooth", "Ashaiman – Main", "Hohoe – Central", "Axim – Harbour"];
const benchBranches: DemoBranchPlan[] = townNames.map((name, index) => ({ code: index === 0 ? "ACC" : index === 1 ? "KUM" : `B${String(index).padStart(2, "0")}`, name }));

type Measurement = { name: string; p50: number; p95: number; max: number; rows: string };

async function time(name: string, run: () => Promise<string>): Promise<Measurement> {
  let rows = "";
  for (let index = 0; index < warmups; index++) rows = await run();
  const samples: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    rows = await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (fraction: number) => samples[Math.min(samples.length - 1, Math.ceil(samples.length * fraction) - 1)]!;
  return { name, p50: at(0.5), p95: at(0.95), max: samples.at(-1)!, rows };
}

function printTable(label: string, measurements: Measurement[]): void {
  const width = Math.max(...measurements.map((measurement) => measurement.name.length));
  console.log(`\n${label}: p50 / p95 / max in ms over ${runs} runs (goal p95 ≤ ${goalMs} ms)`);
  console.log(`${"query".padEnd(width)}  ${"p50".padStart(7)}  ${"p95".padStart(7)}  ${"max".padStart(7)}  result`);
  for (const measurement of measurements) {
    const flag = measurement.p95 > goalMs ? "  ← over goal" : "";
    console.log(
      `${measurement.name.padEnd(width)}  ${measurement.p50.toFixed(1).padStart(7)}  ${measurement.p95.toFixed(1).padStart(7)}  ${measurement.max.toFixed(1).padStart(7)}  ${measurement.rows}${flag}`,
    );
  }
}

async function seed(db: Database, label: string): Promise<void> {
  const plan = planDemoData({ now, totalTokens, days: 180, branches: benchBranches, tellersPerBranch: 8 });
  let lastPrinted = 0;
  const report = await writeDemoData(db, plan, {
    keys,
    withEvents: false,
    existingTellers: {},
    onProgress: (written, total) => {
      if (written - lastPrinted >= 50_000 || written === total) {
        process.stdout.write(`  ${label}: ${written.toLocaleString("en")} / ${total.toLocaleString("en")} tokens written\n`);
        lastPrinted = written;
      }
    },
  });
  // The review indexes come with the migrations (0005, 0006, 0008). A running app is vacuumed
  // (PostgreSQL's autovacuum, lib/db/upkeep.ts on PGlite): fresh statistics for the planner and
  // a visibility map for the figures' index-only scan.
  const vacuumStarted = performance.now();
  await db.execute(sql`vacuum (analyze)`);
  console.log(`  ${label}: seeded in ${(report.durationMs / 1000).toFixed(1)} s, vacuum (analyze) ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`);
}

async function benchmark(scratch: ScratchDatabase): Promise<{ list: Measurement[]; figures: Measurement[]; exportReport: string }> {
  const db = scratch.opened.db;
  console.log(`\n── ${scratch.label} ── (load average ${os.loadavg().map((value) => value.toFixed(1)).join(" ")} on ${os.cpus().length} cores)`);
  await seed(db, scratch.label);

  const branchRows = await queryRows<{ id: string; code: string }>(db, sql`select id, code from branches order by code`);
  const branchId = (code: string) => branchRows.find((row) => row.code === code)!.id;
  const headOffice: BranchScope = { kind: "all" };
  const kumasi: BranchScope = { kind: "branch", branchId: branchId("KUM") };
  const smallBranch: BranchScope = { kind: "branch", branchId: branchId("B07") };
  const [tellerRow] = await queryRows<{ id: string }>(db, sql`select issued_by_user_id as id from token_requests where branch_id = ${branchId("KUM")} limit 1`);
  const [tokenRow] = await queryRows<{ token: string }>(db, sql`select token from token_requests where token is not null order by created_at limit 1 offset 1000`);
  const today = bankDayOf(now);
  const weekAgo = bankDayOf(new Date(now.getTime() - 6 * 86_400_000));
  const monthAgo = bankDayOf(new Date(now.getTime() - 29 * 86_400_000));
  let lastWeekday = bankDayOf(new Date(now.getTime() - 86_400_000));
  for (let back = 1; [0, 6].includes(new Date(`${lastWeekday}T12:00:00Z`).getUTCDay()); back++) {
    lastWeekday = bankDayOf(new Date(now.getTime() - (back + 1) * 86_400_000));
  }

  const list = (scope: BranchScope, query: Partial<ReviewListQuery>) => async () => {
    const page = await listReviewTokens(db, scope, { ...defaultListQuery, ...query });
    return `${page.rows.length} rows of ${page.isCountCapped ? ">" : ""}${page.total}`;
  };

  const listMeasurements = [
    await time("head office, no filter (newest 50)", list(headOffice, {})),
    await time("branch supervisor, no filter", list(kumasi, {})),
    await time("small branch, no filter", list(smallBranch, {})),
    await time("state = failed", list(headOffice, { state: ["failed"] })),
    await time("state = in progress (rare)", list(headOffice, { state: ["in_progress"] })),
    await time("state = outcome unknown, branch", list(kumasi, { state: ["outcome_unknown"] })),
    await time("kind = remote", list(headOffice, { kind: "remote" })),
    await time("ID type = driver licence", list(headOffice, { idType: "DRIVER_LICENCE" })),
    await time("branch = Kumasi (head office picks)", list(headOffice, { branch: branchId("KUM") })),
    await time("teller", list(kumasi, { teller: tellerRow!.id })),
    await time("date range: last 7 days", list(headOffice, { from: weekAgo, to: today })),
    await time("date range: one day, branch", list(kumasi, { from: lastWeekday, to: lastWeekday })),
    await time("reference starts with 0244", list(headOffice, { reference: "0244" })),
    await time("token (exact)", list(headOffice, { token: tokenRow!.token })),
    await time("combined: branch + failed + 30 days", list(kumasi, { state: ["failed"], from: monthAgo, to: today })),
    await time("sorted by state", list(headOffice, { sort: "state", dir: "asc" })),
    await time("sorted by reference, branch", list(kumasi, { sort: "reference", dir: "asc" })),
    await time("sorted by time to result", list(headOffice, { sort: "duration", dir: "asc", from: weekAgo, to: today })),
    await time("page 40 (offset 1 950)", list(headOffice, { page: 40 })),
    await time("ID number (blind index)", async () => {
      const rows = await listTokensByIdNumberIndex(db, headOffice, computeIdNumberIndex(demoKnownCustomer.idNumber, keys));
      return `${rows.length} rows`;
    }),
  ];

  const figures = (scope: BranchScope, from: string, groupBy: "branch" | "teller" | "day") => async () => {
    const report = await computeFigures(db, scope, { from, to: today, groupBy });
    return `${report.groups.length} groups, ${report.total.requests} tokens`;
  };
  const figureMeasurements = [
    await time("figures: head office, per branch, 7 days", figures(headOffice, weekAgo, "branch")),
    await time("figures: head office, per branch, 30 days", figures(headOffice, monthAgo, "branch")),
    await time("figures: head office, per day, 30 days", figures(headOffice, monthAgo, "day")),
    await time("figures: head office, per teller, 30 days", figures(headOffice, monthAgo, "teller")),
    await time("figures: branch, per teller, 30 days", figures(kumasi, monthAgo, "teller")),
    await time("figures: branch, per day, 7 days", figures(kumasi, weekAgo, "day")),
    await time("reconciliation: branch, last weekday", async () => {
      const sheet = await buildReconciliation(db, kumasi, { day: lastWeekday, branch: branchId("KUM") });
      return `${sheet.tellers.length} tellers, ${sheet.followUp.length} to follow up`;
    }),
  ];

  const exportReport = await measureExport(db, headOffice);
  console.log(`  load average after: ${os.loadavg().map((value) => value.toFixed(1)).join(" ")}`);
  printTable(`${scratch.label}, ${totalTokens.toLocaleString("en")} tokens — list`, listMeasurements);
  printTable(`${scratch.label} — figures and reconciliation`, figureMeasurements);
  console.log(`\n${scratch.label} — ${exportReport}`);
  return { list: listMeasurements, figures: figureMeasurements, exportReport };
}

/** Streams the whole masked CSV export to nowhere, sampling the process memory as it goes. */
async function measureExport(db: Database, scope: BranchScope): Promise<string> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  // Sampled at every page from inside the stream: with PGlite in this process, queries resolve
  // as microtasks and a timer might never get its turn.
  const sample = () => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  };
  let bytes = 0;
  let rows = 0;
  const started = performance.now();
  const pages = countRows(readExportPages(db, scope, {}), (count) => {
    rows += count;
    sample();
  });
  await pipeline(
    Readable.fromWeb(csvPagedWebStream(maskedExportColumns, pages) as NodeReadableStream<Uint8Array>),
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback();
      },
    }),
  );
  sample();
  const seconds = (performance.now() - started) / 1000;
  const mb = (value: number) => (value / 1024 / 1024).toFixed(1);
  return (
    `CSV export of ${rows.toLocaleString("en")} rows (${mb(bytes)} MB) in ${seconds.toFixed(1)} s: ` +
    `RSS growth ${mb(peakRss - before.rss)} MB at peak, heap growth ${mb(peakHeap - before.heapUsed)} MB at peak ` +
    `(goal < 100 MB)${gc ? "" : " — run with --expose-gc for a clean baseline"}`
  );
}

async function* countRows<T>(pages: AsyncIterable<T[]>, onPage: (rows: number) => void): AsyncGenerator<T[]> {
  for await (const page of pages) {
    onPage(page.length);
    yield page;
  }
}

// BENCH_TARGETS=postgres measures PostgreSQL alone: the export's memory growth is then not
// measured on top of a PGlite that already grew in the same process.
const wanted = new Set((process.env.BENCH_TARGETS ?? "pglite,postgres").split(",").map((target) => target.trim()));
const targets: (() => Promise<ScratchDatabase>)[] = [];
if (wanted.has("pglite")) targets.push(() => createScratchPglite("veridesk-bench-"));
if (wanted.has("postgres") && process.env.BENCH_DATABASE_URL) targets.push(() => createScratchPostgres(process.env.BENCH_DATABASE_URL!, "veridesk_bench"));
else if (wanted.has("postgres")) console.log("BENCH_DATABASE_URL not set: PGlite only.");

let failed = false;
for (const createTarget of targets) {
  const scratch = await createTarget();
  try {
    const { list, figures } = await benchmark(scratch);
    if ([...list, ...figures].some((measurement) => measurement.p95 > goalMs)) failed = true;
  } finally {
    await scratch.destroy();
  }
}
console.log(failed ? `\nSome p95 times are over the ${goalMs} ms goal (marked above).` : `\nEvery p95 is within the ${goalMs} ms goal.`);
