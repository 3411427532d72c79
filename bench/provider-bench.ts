/**
 * Provider benchmark (ADR 0017): what following tokens costs the verification service,
 * and how soon a watching page shows an outcome, measured side by side in one run against the
 * real sandbox process, the real watcher and a scratch PGlite. See bench/README.md.
 *
 *   npm run bench -- provider
 *   BENCH_TOKENS=20 npm run bench -- provider
 *
 * 1. Calls over a pending token's whole life, watched and unwatched. Time is simulated: the
 *    watcher's clock and the sandbox's clock move forward together one second per step over the
 *    15 minutes and the expiry after, so a token's life takes a minute to measure. A watched token
 *    has a page marking it viewed every 2 s (the poll route's `noteTokensViewed`, as
 *    `recordViews`). The sandbox's call log is counted per token.
 * 2. Delay from the sandbox having an outcome to a watching page showing it. Real time: the
 *    watcher runs with its production settings; each token has a page polling the database every
 *    2 s (`getLiveToken`, as GET /api/tokens/[id] does) and marking it viewed; each customer
 *    finishes at a random moment.
 * 3. The same delay while one token's calls hang (the sandbox holds every call about it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { createUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { createScratchPglite } from "@/test/kit/database";
import type { Database } from "@/lib/db/types";
import { createDrizzleWatcherStore } from "@/lib/watcher/drizzle-store";
import { getLiveToken } from "@/lib/live/token-detail";
import { watcherSettingsFrom } from "@/lib/watcher/settings";
import { seedIssuedTokens } from "@/test/kit/issued-tokens";
import { recordViews } from "@/lib/watcher/viewers";
import { createWatcher } from "@/lib/watcher/watcher";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const sandboxPort = Number(process.env.BENCH_SANDBOX_PORT ?? 4610);
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const apiKey = "bench-key";
const tokensPerGroup = Number(process.env.BENCH_TOKENS ?? 12);
const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** The production defaults of lib/env.ts. */
const productionSettings = watcherSettingsFrom({
  WATCHER_TICK_MS: 1_000,
  WATCHER_WATCHED_POLL_MS: Number(process.env.BENCH_WATCHED_POLL_MS ?? 3_000),
  WATCHER_UNWATCHED_POLL_MS: 30_000,
  WATCHER_MAX_IN_FLIGHT: 8,
  WATCHER_CALLS_PER_SECOND: 20,
  WATCHER_MAX_BACKOFF_SECONDS: 300,
  WATCHER_FOLLOW_USED_MINUTES: 120,
  UPSTREAM_TIMEOUT_MS: 10_000,
});
const viewSettings = { follow: productionSettings.follow, issueTimeoutMs: 30_000, staleAfterMs: 30_000 };
const PAGE_POLL_MS = 2_000;

type SandboxCall = { path: string; token?: string };

async function main(): Promise<void> {
  const sandbox = await startSandbox();
  const upstream = createUpstreamClient({ baseUrl: sandboxUrl, apiKey, timeoutMs: 10_000, issueTimeoutMs: 30_000, logger: silentLogger });
  console.log(`Provider benchmark — ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average ${loadAverage()}`);
  try {
    const life = await measureCallsOverLife(upstream);
    console.log(`\n1. Status calls over a pending token's whole life (15 min + expiry), ${tokensPerGroup} tokens each, simulated time`);
    console.log(`   watched   mean ${life.watched.mean.toFixed(1)}  min ${life.watched.min}  max ${life.watched.max}`);
    console.log(`   unwatched mean ${life.unwatched.mean.toFixed(1)}  min ${life.unwatched.min}  max ${life.unwatched.max}   goal ≤ 60 ${mark(life.unwatched.mean <= 60)}`);
    console.log(`   all closed as expired: ${life.allExpired ? "yes" : "NO"}`);

    const normal = await measureDelays(upstream, { holdOneToken: false });
    const held = await measureDelays(upstream, { holdOneToken: true });
    console.log(`\n2. Delay from the sandbox's outcome to a watching page showing it (page polls every ${PAGE_POLL_MS / 1000} s), real time`);
    printDelays("   normal                       ", normal, true);
    printDelays("   while one token's calls hang ", held, true);
    console.log(`   held token's calls answered: ${held.heldCallsAnswered} (the sandbox never answers them; each ends at the 10 s timeout)`);
    console.log(`\nload average after: ${loadAverage()}`);
  } finally {
    sandbox.kill("SIGTERM");
  }
}

async function measureCallsOverLife(upstream: UpstreamClient) {
  const scratch = await createScratchPglite("veridesk-bench-provider-");
  try {
    await resetSandbox();
    // One clock for the watcher and the sandbox: the sandbox's (real time plus the offset it has
    // been moved by). Advancing only the watcher's would let real time skew the two apart, and the
    // sandbox would call a token invalid before the watcher's own 15 minutes were up.
    let sandboxOffsetMs = (JSON.parse((await controlRequest("GET", "/sandbox/api/clock")).text) as { offsetMs: number }).offsetMs;
    const sharedNow = () => new Date(Date.now() + sandboxOffsetMs);
    const startedAt = sharedNow();
    const watched = await seedIssuedTokens(scratch.opened.db, upstream, tokensPerGroup, startedAt);
    const unwatched = await seedIssuedTokens(scratch.opened.db, upstream, tokensPerGroup, startedAt);
    const firstCall = await lastCallId();
    const watcher = createWatcher({
      store: createDrizzleWatcherStore(scratch.opened.db),
      source: upstream,
      // Every due token in one step: the budget is not what is measured here.
      settings: { ...productionSettings, maxInFlight: 200, callsPerSecond: 1_000 },
      logger: silentLogger,
      now: sharedNow,
    });
    const stepMs = 1_000;
    const lifeMs = 15 * 60_000 + 90_000;
    let lastViewAt = 0;
    while (sharedNow().getTime() - startedAt.getTime() <= lifeMs) {
      if (sharedNow().getTime() - lastViewAt >= PAGE_POLL_MS) {
        lastViewAt = sharedNow().getTime();
        await recordViews(scratch.opened.db, watched.map((token) => token.id), sharedNow(), productionSettings.schedule.watchedIntervalMs);
      }
      await watcher.runOnce();
      const moved = JSON.parse((await controlRequest("POST", "/sandbox/api/clock", { advanceMinutes: stepMs / 60_000 })).text) as { now: string };
      sandboxOffsetMs = Date.parse(moved.now) - Date.now();
    }
    const calls = await callsSince(firstCall);
    const countFor = (tokens: { token: string }[]) => {
      const counts = tokens.map((seeded) => calls.filter((call) => call.token === seeded.token && call.path.includes("token_status")).length);
      return { mean: counts.reduce((sum, count) => sum + count, 0) / counts.length, min: Math.min(...counts), max: Math.max(...counts) };
    };
    const states = await scratch.opened.db.query.tokenRequests.findMany({ columns: { liveState: true, finishedAt: true } });
    return {
      watched: countFor(watched),
      unwatched: countFor(unwatched),
      allExpired: states.every((row) => row.liveState === "expired" && row.finishedAt !== null),
    };
  } finally {
    await scratch.destroy();
  }
}

type Delays = { samples: number[]; heldCallsAnswered: number };

async function measureDelays(upstream: UpstreamClient, options: { holdOneToken: boolean }): Promise<Delays> {
  const scratch = await createScratchPglite("veridesk-bench-provider-");
  const timers: NodeJS.Timeout[] = [];
  const watcher = createWatcher({ store: createDrizzleWatcherStore(scratch.opened.db), source: upstream, settings: productionSettings, logger: silentLogger });
  try {
    await resetSandbox();
    const seeded = await seedIssuedTokens(scratch.opened.db, upstream, tokensPerGroup + (options.holdOneToken ? 1 : 0), new Date());
    const held = options.holdOneToken ? seeded.pop()! : null;
    if (held) await sandboxPost("/sandbox/api/faults", { mode: "hang", token: held.token, count: 10_000 });
    const firstCall = await lastCallId();

    // The pages: each token watched by a page polling the database, its views written once a second.
    const viewed = new Set<string>();
    timers.push(setInterval(() => void flushViews(scratch.opened.db, viewed), 1_000));
    const seenAt = new Map<string, number>();
    for (const token of held ? [...seeded, held] : seeded) {
      const poll = async () => {
        const body = await getLiveToken(scratch.opened.db, { userId: "bench", scope: { kind: "all" } }, token.id, viewSettings);
        if (!body.token.isFinal) viewed.add(token.id);
        if (body.token.state === "successful" && !seenAt.has(token.id)) seenAt.set(token.id, performance.now());
      };
      timers.push(setTimeout(() => timers.push(setInterval(() => void poll(), PAGE_POLL_MS)), Math.random() * PAGE_POLL_MS));
      await poll();
    }
    watcher.start();

    // The customers: each finishes at a random moment within the next 20 s.
    const finishedAt = new Map<string, number>();
    await Promise.all(
      seeded.map(async (token) => {
        await sleep(3_000 + Math.random() * 17_000);
        await sandboxPost(`/sandbox/api/tokens/${token.token}/use`);
        await sandboxPost(`/sandbox/api/tokens/${token.token}/result`, { status: "SUCCESSFUL" });
        finishedAt.set(token.id, performance.now());
      }),
    );
    const deadline = performance.now() + 30_000;
    while (seenAt.size < seeded.length && performance.now() < deadline) await sleep(200);

    const samples = seeded.map((token) => ((seenAt.get(token.id) ?? Number.POSITIVE_INFINITY) - finishedAt.get(token.id)!) / 1000);
    const heldCallsAnswered = held ? (await callsSince(firstCall)).filter((call) => call.token === held.token && (call as { status?: number }).status).length : 0;
    return { samples, heldCallsAnswered };
  } finally {
    for (const timer of timers) clearInterval(timer);
    await watcher.stop();
    await sandboxPost("/sandbox/api/reset").catch(() => undefined);
    await scratch.destroy();
  }
}

async function flushViews(db: Database, viewed: Set<string>): Promise<void> {
  const ids = [...viewed];
  viewed.clear();
  await recordViews(db, ids, new Date(), productionSettings.schedule.watchedIntervalMs);
}

function printDelays(label: string, delays: Delays, withGoal: boolean): void {
  const sorted = [...delays.samples].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const max = sorted.at(-1)!;
  const goal = withGoal ? `   goal median ≤ 3 s ${mark(median <= 3)}, max ≤ 5 s ${mark(max <= 5)}` : "";
  console.log(`${label}median ${median.toFixed(2)} s  max ${max.toFixed(2)} s  (n=${sorted.length})${goal}`);
}

function mark(isMet: boolean): string {
  return isMet ? "✔" : "✘";
}

async function startSandbox(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/server.ts"], {
    cwd: repoRoot,
    env: { ...process.env, SANDBOX_PORT: String(sandboxPort), SANDBOX_API_KEY: apiKey },
    stdio: "ignore",
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await controlRequest("GET", "/sandbox/api/clock")).status === 200) return child;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  child.kill();
  throw new Error(`the sandbox did not start on ${sandboxUrl}`);
}

async function sandboxPost(pathname: string, body?: unknown): Promise<void> {
  const response = await controlRequest("POST", pathname, body);
  if (response.status !== 200) throw new Error(`POST ${pathname}: ${response.status} ${response.text}`);
}

/**
 * The sandbox's controls, each on a connection of its own: a kept-alive socket left idle while a
 * scratch database migrates can be closed by the server just as the next POST reuses it, and a
 * POST is never retried (seen under load: "other side closed" on the reset).
 */
function controlRequest(method: "GET" | "POST", pathname: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(`${sandboxUrl}${pathname}`, { method, agent: false, headers: payload ? { "Content-Type": "application/json" } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(payload);
  });
}

async function resetSandbox(): Promise<void> {
  await sandboxPost("/sandbox/api/reset");
}

async function callsSince(sinceId: number): Promise<(SandboxCall & { id: number })[]> {
  const { calls } = JSON.parse((await controlRequest("GET", `/sandbox/api/calls?since=${sinceId}`)).text) as { calls: (SandboxCall & { id: number })[] };
  return calls;
}

async function lastCallId(): Promise<number> {
  const calls = await callsSince(0);
  return calls.at(-1)?.id ?? 0;
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

function loadAverage(): string {
  return os.loadavg().map((value) => value.toFixed(1)).join(" ");
}

await main();
