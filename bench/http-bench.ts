/**
 * `npm run bench:http` (ADR 0026, never part of `npm test`): the HTTP hot paths, measured side by
 * side in one run against the built app (`next start`), first on PGlite, then on PostgreSQL.
 *
 *   npm run bench:http                        # uses .next (run `npx next build` first), or builds
 *   BENCH_SECONDS=4 BENCH_ROUNDS=3 npm run bench:http
 *   TEST_DATABASE_URL=postgres://… npm run bench:http   # the PostgreSQL half (skipped when unset)
 *
 * 1. Throughput and p95 of GET /api/tokens/[id] and GET /api/tokens?scope=today (136 tokens
 *    today), each ÷ the constant-JSON ceiling route (/api/bench/ceiling, on only through the
 *    bench-only setting BENCH_CEILING_ROUTE), 10 connections, rounds interleaved
 *    (ceiling, token, list, ceiling, …), the same session cookie. The polls are measured both as
 *    the page sends them (with the ETag of its last answer, when the route gives one) and plain.
 * 2. Issuing overhead: `issueFingerprintToken` against a scratch database of the same kind and the
 *    real sandbox process; overhead = total − the sandbox call's own time, p50/p95.
 * 3. First-load JS per page, gzip (level 9, kB = 1000 B), from .next/diagnostics/route-bundle-stats.json.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { authUsers, branches } from "@/lib/db/schema";
import { createScratchPglite, createScratchPostgres, type ScratchDatabase } from "@/test/kit/database";
import { issueFingerprintToken } from "@/lib/tokens/issue-token";
import { fingerprintSubmission } from "@/test/kit/submissions";
import { createUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { firstLoadGzipPerRoute } from "@/scripts/support/bundle-budget";
import { agentFor, killGroup, load as loadAt, loadAverage, mergeStatuses, percentile, rate, repoRoot, run, signIn as signInAt, waitForUrl, type Sample } from "./support/http-load";

// Next sends anonymous usage data unless told not to; a bank's servers send nothing out (docs/operations.md).
process.env.NEXT_TELEMETRY_DISABLED = "1";

const appPort = Number(process.env.BENCH_APP_PORT ?? 3261);
const sandboxPort = Number(process.env.BENCH_SANDBOX_PORT ?? 4260);
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const appUrl = `http://127.0.0.1:${appPort}`;
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = 10;
const tokenCount = Number(process.env.BENCH_TOKENS ?? 136);
const issueCount = Number(process.env.BENCH_ISSUES ?? 60);
const trackedPages = ["/tokens/new/remote", "/tokens/new/fingerprint", "/tokens/[id]", "/"];


async function main(): Promise<void> {
  if (!fs.existsSync(path.join(repoRoot, ".next/BUILD_ID"))) {
    console.log("No build in .next: running `next build`…");
    run("npx", ["next", "build"]);
  }
  console.log(`HTTP hot paths — ${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
  console.log(`load average before: ${loadAverage()}   (${connections} connections, ${rounds} interleaved rounds of ${seconds} s)`);
  const sandbox = spawn("npx", ["tsx", "sandbox/server.ts"], { cwd: repoRoot, env: { ...process.env, SANDBOX_PORT: String(sandboxPort) }, stdio: "ignore", detached: true });
  try {
    await waitForUrl(`${sandboxUrl}/sandbox/api/clock`);
    console.log("\n3. First-load JS, gzip (kB)");
    const sizes = firstLoadGzipPerRoute(repoRoot);
    for (const route of trackedPages) console.log(`   ${route.padEnd(26)} ${((sizes.get(route) ?? NaN) / 1000).toFixed(1)}`);

    const kinds: Array<{ label: string; create: () => Promise<ScratchDatabase> }> = [{ label: "PGlite", create: () => createScratchPglite("veridesk-bench-http-") }];
    if (process.env.TEST_DATABASE_URL) kinds.push({ label: "PostgreSQL", create: () => createScratchPostgres(process.env.TEST_DATABASE_URL!, "veridesk_bench_http") });
    else console.log("\n(TEST_DATABASE_URL unset: PostgreSQL skipped)");
    for (const kind of kinds) {
      console.log(`\n━━ ${kind.label} ━━`);
      await measureHttp(kind.create);
      await measureIssuing(kind.create);
    }
    console.log(`\nload average after: ${loadAverage()}`);
  } finally {
    killGroup(sandbox);
  }
}

async function measureHttp(create: () => Promise<ScratchDatabase>): Promise<void> {
  const scratch = await create();
  // The app process must own an embedded database alone: close ours before it starts.
  const connection = scratch.connection;
  await scratch.opened.close();
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    APP_ENV: "local",
    PORT: String(appPort),
    APP_URL: appUrl,
    UPSTREAM_BASE_URL: sandboxUrl,
    BENCH_CEILING_ROUTE: "true",
    WATCHER_ENABLED: "false",
    LOG_LEVEL: "warn",
    BENCH_TOKENS: String(tokenCount),
    ...("pgliteDataDir" in connection ? { PGLITE_DATA_DIR: connection.pgliteDataDir, DATABASE_URL: "" } : { DATABASE_URL: connection.databaseUrl }),
  };
  const tsx = ["tsx", "--conditions=react-server"];
  run("npx", [...tsx, "scripts/db-migrate.ts"], appEnv);
  run("npx", [...tsx, "scripts/db-seed.ts", "--if-empty"], appEnv);
  const seeded = run("npx", [...tsx, "bench/http-seed.ts"], appEnv);
  const tokenId = /BENCH_TOKEN_ID=([0-9a-f-]+)/.exec(seeded)?.[1];
  if (!tokenId) throw new Error(`seeding printed no token id:\n${seeded}`);
  const app = spawn("npx", ["next", "start", "--port", String(appPort), "--hostname", "127.0.0.1"], { cwd: repoRoot, env: appEnv, stdio: "ignore", detached: true });
  try {
    await waitForUrl(`${appUrl}/sign-in`, 120_000);
    const cookie = await signInAt(appUrl, "teller.accra", "veridesk-demo");
    const agent = agentFor(appUrl, connections);
    const load = (urlPath: string, cookieHeader: string, conditional: boolean, durationSeconds: number) =>
      loadAt({ baseUrl: appUrl, agent, connections }, urlPath, cookieHeader, conditional, durationSeconds);
    const targets = {
      ceiling: { path: "/api/bench/ceiling", conditional: false },
      token: { path: `/api/tokens/${tokenId}`, conditional: true },
      "token (no ETag)": { path: `/api/tokens/${tokenId}`, conditional: false },
      list: { path: "/api/tokens?scope=today", conditional: true },
      "list (no ETag)": { path: "/api/tokens?scope=today", conditional: false },
    };
    const samples = new Map<string, Sample[]>();
    // Warm-up: the first requests compile nothing in a build, but fill caches and JIT.
    for (const target of Object.values(targets)) await load(target.path, cookie, target.conditional, 1);
    for (let round = 0; round < rounds; round += 1) {
      for (const [name, target] of Object.entries(targets)) {
        const sample = await load(target.path, cookie, target.conditional, seconds);
        samples.set(name, [...(samples.get(name) ?? []), sample]);
      }
    }
    agent.destroy();
    const ceilingRates = samples.get("ceiling")!.map(rate);
    console.log(`1. Polling (${tokenCount} tokens today), req/s per round, ÷ the ceiling of the same round, p95`);
    for (const [name, list] of samples) {
      const ratios = list.map((sample, index) => rate(sample) / ceilingRates[index]!);
      const all = list.flatMap((sample) => sample.latencies);
      const statuses = [...mergeStatuses(list)].map(([status, n]) => `${status}×${n}`).join(" ");
      const bytesPerAnswer = list.reduce((sum, sample) => sum + sample.bytes, 0) / Math.max(1, list.reduce((sum, sample) => sum + sample.requests, 0));
      console.log(
        `   ${name.padEnd(16)} ${list.map((sample) => rate(sample).toFixed(0)).join(" / ").padEnd(18)} req/s  ` +
          `÷ceiling ${ratios.map((ratio) => `${(ratio * 100).toFixed(0)} %`).join(" / ").padEnd(18)} p50 ${percentile(all, 50).toFixed(1)} ms  p95 ${percentile(all, 95).toFixed(1)} ms  ` +
          `${(bytesPerAnswer / 1000).toFixed(1)} kB/answer  [${statuses}]`,
      );
    }
  } finally {
    killGroup(app);
    await new Promise((resolve) => app.once("exit", resolve).once("error", resolve));
    // Reopen only to drop it.
    const drop = await reopen(scratch);
    await drop();
  }
}

async function reopen(scratch: ScratchDatabase): Promise<() => Promise<void>> {
  if ("pgliteDataDir" in scratch.connection) {
    const dir = path.dirname(scratch.connection.pgliteDataDir);
    return async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const { databaseUrl } = scratch.connection;
  return async () => {
    const pg = (await import("pg")).default;
    const url = new URL(databaseUrl);
    const name = url.pathname.slice(1);
    url.pathname = "/postgres";
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  };
}

async function measureIssuing(create: () => Promise<ScratchDatabase>): Promise<void> {
  const scratch = await create();
  try {
    const db = scratch.opened.db;
    const suffix = randomUUID().slice(0, 6);
    const [branch] = await db.insert(branches).values({ code: `B${suffix}`, name: `Bench ${suffix}` }).returning();
    const userId = randomUUID();
    await db.insert(authUsers).values({ id: userId, name: "Bench Teller", email: `${userId}@staff.invalid`, username: `bench${suffix}` });
    const issuer = { userId, username: `bench${suffix}`, branch: { id: branch!.id, name: branch!.name } };
    const real = createUpstreamClient({ baseUrl: sandboxUrl, apiKey: "sandbox-key", timeoutMs: 10_000, issueTimeoutMs: 30_000, logger: { info() {}, warn() {} } });
    let serviceMs = 0;
    const upstream: UpstreamClient = {
      ...real,
      initiateFingerprintToken: async (request) => {
        const startedAt = performance.now();
        try {
          return await real.initiateFingerprintToken(request);
        } finally {
          serviceMs = performance.now() - startedAt;
        }
      },
    };
    const overheads: number[] = [];
    const totals: number[] = [];
    for (let index = 0; index < issueCount + 5; index += 1) {
      const submission = fingerprintSubmission();
      serviceMs = 0;
      const startedAt = performance.now();
      const result = await issueFingerprintToken(submission, issuer, `bench-${index}`, {
        db,
        upstream,
        log: { info() {}, error() {} },
      });
      const total = performance.now() - startedAt;
      if (result.status !== "issued") throw new Error(`issuing answered ${result.status}`);
      if (index < 5) continue; // warm-up
      totals.push(total);
      overheads.push(total - serviceMs);
    }
    console.log(
      `2. Issuing (${issueCount} fingerprint tokens, in process): total p50 ${percentile(totals, 50).toFixed(1)} ms; ` +
        `overhead over the sandbox call p50 ${percentile(overheads, 50).toFixed(1)} ms, p95 ${percentile(overheads, 95).toFixed(1)} ms`,
    );
  } finally {
    await scratch.destroy();
  }
}

await main();
