import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDatabase } from "@/lib/db/types";
import { auditEvents, tokenEvents, tokenRequests, upstreamCallBudget } from "@/lib/db/schema";
import { makeScratchDatabase, openScratchDatabase, type UnopenedScratchDatabase } from "@/test/kit/database";
import { createUpstreamClient } from "@/lib/upstream";
import type { UpstreamClient } from "@/lib/upstream";
import { createDrizzleWatcherStore } from "./drizzle-store";
import { watcherSettingsFrom } from "./settings";
import { createWatcher } from "./watcher";
import { seedIssuedTokens as seedIssuedTokensWith } from "@/test/kit/issued-tokens";
import { recordViews } from "./viewers";

/**
 * The watcher against real processes: the sandbox as its own process (port 4512) and a real
 * database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set). Proves that open tokens reach
 * their outcome with nobody watching, that a process killed mid-poll loses nothing (a second
 * process on the same database takes over), and that two watchers never poll a token twice.
 */

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const sandboxPort = 4512;
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const apiKey = "watcher-test-key";
const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };
const settings = watcherSettingsFrom({
  WATCHER_TICK_MS: 1000,
  WATCHER_WATCHED_POLL_MS: 2000,
  WATCHER_UNWATCHED_POLL_MS: 6000,
  WATCHER_MAX_IN_FLIGHT: 8,
  WATCHER_CALLS_PER_SECOND: 100,
  WATCHER_MAX_BACKOFF_SECONDS: 300,
  WATCHER_FOLLOW_USED_MINUTES: 120,
  UPSTREAM_TIMEOUT_MS: 3000,
});

let sandbox: ChildProcess | undefined;
let upstream: UpstreamClient;

beforeAll(async () => {
  sandbox = spawn(process.execPath, ["--import", "tsx", "sandbox/server.ts"], {
    cwd: repoRoot,
    env: { ...process.env, SANDBOX_PORT: String(sandboxPort), SANDBOX_API_KEY: apiKey },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await waitForSandbox();
  upstream = createUpstreamClient({ baseUrl: sandboxUrl, apiKey, timeoutMs: 3000, logger: silentLogger });
});

afterAll(async () => {
  if (!sandbox || sandbox.exitCode !== null) return;
  const exited = new Promise((resolve) => sandbox?.once("exit", resolve));
  sandbox.kill("SIGTERM");
  await exited;
});

async function waitForSandbox(): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (sandbox?.exitCode !== null) throw new Error("the sandbox exited at start");
    try {
      if ((await fetch(`${sandboxUrl}/sandbox/api/clock`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the sandbox did not start");
}

async function sandboxPost(pathname: string, body?: unknown): Promise<void> {
  const response = await fetch(`${sandboxUrl}${pathname}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${pathname}: ${response.status} ${await response.text()}`);
}

async function statusCallsFor(tokens: string[]): Promise<{ path: string; token?: string }[]> {
  const { calls } = (await (await fetch(`${sandboxUrl}/sandbox/api/calls`)).json()) as { calls: { path: string; token?: string }[] };
  return calls.filter((call) => call.token !== undefined && tokens.includes(call.token) && call.path.includes("token_status"));
}

async function sandboxResultOf(token: string): Promise<{ transactionNumber: string; error?: string } | undefined> {
  const record = (await (await fetch(`${sandboxUrl}/sandbox/api/tokens/${token}`)).json()) as {
    result?: { transactionNumber: string; error?: string };
  };
  return record.result;
}

function seedIssuedTokens(db: OpenedDatabase["db"], count: number, issuedAt: Date): Promise<{ id: string; token: string }[]> {
  return seedIssuedTokensWith(db, upstream, count, issuedAt);
}

function watcherAt(db: OpenedDatabase["db"], clock: { now: Date }) {
  return createWatcher({
    store: createDrizzleWatcherStore(db),
    source: upstream,
    settings,
    logger: silentLogger,
    now: () => new Date(clock.now),
  });
}

describe("the watcher on PGlite with the sandbox", () => {
  let scratch: UnopenedScratchDatabase;
  beforeAll(async () => {
    scratch = await makeScratchDatabase({ driver: "pglite", name: "watcher" });
  });
  afterAll(async () => {
    await scratch?.destroy();
  });

  it("follows open tokens to their outcome with nobody watching, and a restarted process takes over", async () => {
    let opened = await scratch.open("watcher test, first process");
    const clock = { now: new Date() };
    const [succeeds, inProgress, fails, waits] = await seedIssuedTokens(opened.db, 4, clock.now);
    const tokens = [succeeds!, inProgress!, fails!, waits!];

    // First process: one tick, everything waiting.
    const first = watcherAt(opened.db, clock);
    expect(await first.runOnce()).toBe(4);
    const afterFirst = await opened.db.select().from(tokenRequests).where(inArray(tokenRequests.id, tokens.map((t) => t.id)));
    expect(afterFirst.map((row) => row.liveState)).toEqual(["waiting", "waiting", "waiting", "waiting"]);

    // Meanwhile the customers act (nobody watches: the next polls are 6 s away in this test's settings).
    await sandboxPost(`/sandbox/api/tokens/${succeeds!.token}/result`, { status: "SUCCESSFUL" });
    await sandboxPost(`/sandbox/api/tokens/${inProgress!.token}/use`);
    await sandboxPost(`/sandbox/api/tokens/${fails!.token}/result`, { status: "FAILED", error: "Face did not match" });

    // The first process leases the due tokens and is killed before it saves anything.
    clock.now = new Date(clock.now.getTime() + 7_000);
    const leased = await createDrizzleWatcherStore(opened.db).leaseDue({ owner: "killed-process", now: clock.now, leaseMs: 60_000, limit: 10, callsPerSecond: 100 });
    expect(leased.tokens).toHaveLength(4);
    await opened.close();

    // Second process on the same database: it clears the dead leases at start (as boot does) and carries on.
    opened = await scratch.open("watcher test, second process");
    const store = createDrizzleWatcherStore(opened.db);
    await store.clearAllLeases();
    const second = watcherAt(opened.db, clock);
    expect(await second.runOnce()).toBe(4);
    // The loop sleeps until the next open token is due: a few seconds from now.
    const nextDue = await store.nextDueAt();
    expect(nextDue!.getTime() - clock.now.getTime()).toBeGreaterThan(1_000);
    expect(nextDue!.getTime() - clock.now.getTime()).toBeLessThan(10_000);

    const rowOf = async (id: string) => (await opened.db.select().from(tokenRequests).where(eq(tokenRequests.id, id)))[0]!;
    expect((await rowOf(succeeds!.id)).liveState).toBe("successful");
    expect((await rowOf(succeeds!.id)).transactionNumber).toBe((await sandboxResultOf(succeeds!.token))!.transactionNumber);
    expect((await rowOf(succeeds!.id)).finishedAt).not.toBeNull();
    expect((await rowOf(succeeds!.id)).nextPollAt).toBeNull();
    expect(await rowOf(fails!.id)).toMatchObject({ liveState: "failed", resultStatus: "FAILED", resultError: "Face did not match" });
    expect(await rowOf(inProgress!.id)).toMatchObject({ liveState: "in_progress", finishedAt: null });
    expect(await rowOf(waits!.id)).toMatchObject({ liveState: "waiting", finishedAt: null, leaseOwner: null });

    // The result of the used token arrives later; only open tokens are asked about.
    await sandboxPost(`/sandbox/api/tokens/${inProgress!.token}/result`, { status: "SUCCESSFUL" });
    clock.now = new Date(clock.now.getTime() + 7_000);
    expect(await second.runOnce()).toBe(2);
    expect((await rowOf(inProgress!.id)).liveState).toBe("successful");

    const events = await opened.db.select().from(tokenEvents).where(eq(tokenEvents.tokenRequestId, inProgress!.id));
    // Issued means waiting: the first change worth recording is the customer starting.
    expect(events.map((event) => [event.type, event.details.to])).toEqual([
      ["watch.state_changed", "in_progress"],
      ["watch.state_changed", "successful"],
    ]);
    const audit = await opened.db.select().from(auditEvents).where(eq(auditEvents.subjectId, inProgress!.id));
    expect(audit.map((event) => event.action)).toEqual(["token.state_changed", "token.finished"]);
    await second.stop();
    await opened.close();
  });
});

/** Two watchers ticking at the same moment on one database: every due token is polled once. */
async function expectEachTokenPolledOnce(open: () => Promise<OpenedDatabase[]>): Promise<void> {
  const [firstDb, secondDb] = await open();
  try {
    const clock = { now: new Date() };
    const seeded = await seedIssuedTokens(firstDb!.db, 12, clock.now);
    clock.now = new Date(clock.now.getTime() + 1_000);
    const first = watcherAt(firstDb!.db, clock);
    const second = watcherAt(secondDb!.db, clock);
    const [a, b] = await Promise.all([first.runOnce(), second.runOnce()]);
    expect(a + b).toBe(12);
    const calls = await statusCallsFor(seeded.map((token) => token.token));
    expect(calls).toHaveLength(12);
    expect(new Set(calls.map((call) => call.token)).size).toBe(12);
  } finally {
    await firstDb!.close();
    if (secondDb !== firstDb) await secondDb!.close();
  }
}

/**
 * An idle watcher sleeps until the next token can be leased (ADR 0047): a due token another
 * instance holds counts from the end of that lease, so the loop neither spins on it nor misses it.
 */
async function expectNextDueAfterOthersLeases(db: OpenedDatabase["db"]): Promise<void> {
  const store = createDrizzleWatcherStore(db);
  const now = new Date();
  await seedIssuedTokens(db, 2, new Date(now.getTime() - 60_000));
  await db.update(tokenRequests).set({ nextPollAt: new Date(now.getTime() - 1_000) });
  expect((await store.nextDueAt())!.getTime()).toBeLessThanOrEqual(now.getTime());
  const leased = await store.leaseDue({ owner: "other-instance", now, leaseMs: 30_000, limit: 10, callsPerSecond: 100 });
  expect(leased.tokens).toHaveLength(2);
  expect(await store.nextDueAt()).toEqual(new Date(now.getTime() + 30_000));
  await store.releaseLeases("other-instance");
  expect((await store.nextDueAt())!.getTime()).toBeLessThanOrEqual(now.getTime());
}

describe("two watchers on one database", () => {
  it("PGlite and PostgreSQL: the next due token of an idle look counts a lease held by another from its end", async () => {
    const pglite = await openScratchDatabase({ driver: "pglite", name: "watcher-next-due" });
    try {
      await expectNextDueAfterOthersLeases(pglite.opened.db);
    } finally {
      await pglite.destroy();
    }
    if (!process.env.TEST_DATABASE_URL) return;
    const postgres = await openScratchDatabase({ driver: "postgres", name: "watcher_next_due" });
    try {
      await expectNextDueAfterOthersLeases(postgres.opened.db);
    } finally {
      await postgres.destroy();
    }
  });

  it("PGlite (one process): each due token is polled once", async () => {
    const scratch = await openScratchDatabase({ driver: "pglite", name: "watcher-pair" });
    try {
      await expectEachTokenPolledOnce(async () => [scratch.opened, scratch.opened]);
    } finally {
      await scratch.destroy();
    }
  });

  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  it.runIf(testDatabaseUrl)("PostgreSQL (two connection pools, as two instances): each due token is polled once", async () => {
    const scratch = await openScratchDatabase({ driver: "postgres", name: "watcher" });
    try {
      await expectEachTokenPolledOnce(async () => {
        const second = await scratch.openAgain("watcher pair B");
        return [scratch.opened, second];
      });
    } finally {
      await scratch.destroy();
    }
  });
});

/** The provider's budget and the viewers' marks, on each database the app runs on (ADR 0017). */
async function expectBudgetSharedAndViewsRecorded(open: () => Promise<OpenedDatabase[]>): Promise<void> {
  const [firstDb, secondDb] = await open();
  try {
    const clock = { now: new Date() };
    const seeded = await seedIssuedTokens(firstDb!.db, 6, clock.now);
    clock.now = new Date(clock.now.getTime() + 1_000);
    const budgetSettings = { ...settings, callsPerSecond: 4 };
    const watcherOn = (db: OpenedDatabase["db"]) =>
      createWatcher({ store: createDrizzleWatcherStore(db), source: upstream, settings: budgetSettings, logger: silentLogger, now: () => new Date(clock.now) });
    const [a, b] = await Promise.all([watcherOn(firstDb!.db).runOnce(), watcherOn(secondDb!.db).runOnce()]);
    // Two instances, one budget: four polls in this second between them, the rest wait for the next.
    expect(a + b).toBe(4);
    const [budget] = await firstDb!.db.select().from(upstreamCallBudget);
    expect(budget).toMatchObject({ callsInWindow: 4 });
    expect(budget!.deferredSince).not.toBeNull();

    // A 429 seen by one instance pauses the other too.
    const until = new Date(clock.now.getTime() + 20_000);
    await createDrizzleWatcherStore(firstDb!.db).pauseCalls({ until, reason: "429 from the service" });
    clock.now = new Date(clock.now.getTime() + 2_000);
    const paused = await createDrizzleWatcherStore(secondDb!.db).leaseDue({ owner: "other", now: clock.now, leaseMs: 10_000, limit: 5, callsPerSecond: 100 });
    expect(paused).toEqual({ tokens: [], pausedUntil: until, budgetSpentUntil: null });
    // A shorter pause never cuts a longer one short.
    await createDrizzleWatcherStore(secondDb!.db).pauseCalls({ until: new Date(clock.now.getTime() + 1_000), reason: "short" });
    expect((await firstDb!.db.select().from(upstreamCallBudget))[0]!.pausedUntil).toEqual(until);

    // After the pause: the leases of a poll under way are renewed by their holder only.
    clock.now = new Date(until.getTime() + 1_000);
    const store = createDrizzleWatcherStore(firstDb!.db);
    const grant = await store.leaseDue({ owner: "holder", now: clock.now, leaseMs: 10_000, limit: 2, callsPerSecond: 100 });
    expect(grant.tokens).toHaveLength(2);
    const ids = grant.tokens.map((token) => token.id);
    const later = new Date(clock.now.getTime() + 8_000);
    expect((await store.renewLeases({ owner: "holder", ids, now: later, leaseMs: 10_000 })).sort()).toEqual([...ids].sort());
    expect(await store.renewLeases({ owner: "intruder", ids, now: later, leaseMs: 10_000 })).toEqual([]);
    const renewed = await firstDb!.db.select().from(tokenRequests).where(inArray(tokenRequests.id, ids));
    expect(renewed.every((row) => row.leaseUntil!.getTime() === later.getTime() + 10_000)).toBe(true);

    // A page showing a token: watched from now, and its next poll within the watched cadence.
    const unwatched = seeded.find((token) => !ids.includes(token.id))!;
    await firstDb!.db.update(tokenRequests).set({ nextPollAt: new Date(clock.now.getTime() + 30_000) }).where(eq(tokenRequests.id, unwatched.id));
    await recordViews(firstDb!.db, [unwatched.id], clock.now, 2_000);
    const [viewed] = await firstDb!.db.select().from(tokenRequests).where(eq(tokenRequests.id, unwatched.id));
    expect(viewed!.lastViewedAt).toEqual(clock.now);
    expect(viewed!.nextPollAt).toEqual(new Date(clock.now.getTime() + 2_000));
  } finally {
    await firstDb!.close();
    if (secondDb !== firstDb) await secondDb!.close();
  }
}

describe("the provider budget and the viewers on the database", () => {
  it("PGlite", async () => {
    const scratch = await openScratchDatabase({ driver: "pglite", name: "watcher-budget" });
    try {
      await expectBudgetSharedAndViewsRecorded(async () => [scratch.opened, scratch.opened]);
    } finally {
      await scratch.destroy();
    }
  });

  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  it.runIf(testDatabaseUrl)("PostgreSQL (two connection pools, as two instances)", async () => {
    const scratch = await openScratchDatabase({ driver: "postgres", name: "budget" });
    try {
      await expectBudgetSharedAndViewsRecorded(async () => {
        const second = await scratch.openAgain("budget B");
        return [scratch.opened, second];
      });
    } finally {
      await scratch.destroy();
    }
  });
});
