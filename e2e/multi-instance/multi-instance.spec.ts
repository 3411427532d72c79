import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { readFileSync, statSync } from "node:fs";
import { hostname } from "node:os";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { demoAccount, type DemoUsername } from "@/lib/staff/demo-accounts";
import { signInWithForm } from "@/e2e/support/auth";
import { actOnScanner, issueFingerprintToken, statusPaths } from "@/e2e/support/live";
import { newCustomer } from "../support/customers";
import { listCalls, type SandboxCall } from "../support/sandbox";
import {
  instanceEnv,
  nextServerGroups,
  nextServerPids,
  nginxAccessLog,
  nginxErrorLog,
  ownerDatabaseUrl,
  ports,
  sandboxUrl,
  UNWATCHED_POLL_MS,
  watcherPollsOf,
} from "./instances";

/**
 * Through nginx with TLS in front of two instances on one PostgreSQL: the desk works
 * whichever instance answers; two watchers share the open tokens without ever asking about one
 * twice; an instance stopped with SIGTERM hands its tokens back at once and no request fails; one
 * killed with SIGKILL loses no token (the other takes its tokens when the leases run out); and the
 * two webhook workers deliver each token's end to the bank once.
 */

test.describe.configure({ mode: "serial" });

const OPEN_TOKENS = 20;
/** The watcher's lease (lib/watcher/settings.ts: max(10 s, UPSTREAM_TIMEOUT_MS / 2)). */
const LEASE_MS = 10_000;
/**
 * Shorter than any gap one instance leaves between two polls of a token (the watched 3 s less its
 * 10 % jitter is 2.7 s), longer than most two independent pollers would leave.
 */
const SHORTEST_SINGLE_INSTANCE_GAP_MS = 2_400;

let instanceB: ChildProcess | undefined;
const openTokens: { id: string; token: string }[] = [];
let database: pg.Client;

function startInstanceB(): ChildProcess {
  return spawn("npx", ["tsx", "--conditions=react-server", "scripts/serve-app.ts"], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, ...instanceEnv("B") },
  });
}

async function waitUntilReady(port: number): Promise<void> {
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => null))?.status ?? 0, { timeout: 120_000, intervals: [500] })
    .toBe(200);
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

/** The lease owners of instance B's server processes: `<host>:<pid>:<random>`. */
function ownerPrefixesOf(pids: number[]): string[] {
  return pids.map((pid) => `${hostname()}:${pid}:`);
}

async function leasesNow(): Promise<{ id: string; token: string; owner: string }[]> {
  const result = await database.query<{ id: string; token: string; owner: string }>(
    "SELECT id, token, lease_owner AS owner FROM token_requests WHERE lease_owner IS NOT NULL AND lease_until > now()",
  );
  return result.rows;
}

async function signedInPage(browser: Browser, username: DemoUsername): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithForm(page, username, demoAccount(username).password);
  await expect(page).toHaveURL(/\/$/);
  return page;
}

/**
 * Which instances nginx sent each request to after `fromByte` (its `upstream=` field; a request
 * passed on to the next instance lists both, "a, b").
 */
function upstreamsSince(fromByte: number): string[] {
  const log = readFileSync(nginxAccessLog(), "utf8").slice(fromByte);
  return [...log.matchAll(/upstream=(.+?) upstream_status=/g)].flatMap((match) => match[1]!.split(", "));
}

function stateCallsByToken(calls: SandboxCall[], tokens: string[]): Map<string, number[]> {
  const byToken = new Map<string, number[]>(tokens.map((token) => [token, []]));
  for (const call of calls) {
    if (call.path === statusPaths.state && call.token && byToken.has(call.token)) byToken.get(call.token)!.push(Date.parse(call.at));
  }
  return byToken;
}

test.beforeAll(async () => {
  database = new pg.Client({ connectionString: ownerDatabaseUrl() });
  await database.connect();
  instanceB = startInstanceB();
  await waitUntilReady(ports.instanceB);
});

test.afterAll(async () => {
  await database?.end();
  if (instanceB?.pid !== undefined && instanceB.exitCode === null && instanceB.signalCode === null) {
    process.kill(-instanceB.pid, "SIGTERM");
    await exited(instanceB);
  }
});

test("sign-in, issuing, the live page, review and export work whichever instance answers", async ({ browser }) => {
  const logMark = statSync(nginxAccessLog()).size;
  const teller = await signedInPage(browser, "teller.kumasi");
  const { id, token } = await issueFingerprintToken(teller, newCustomer());
  await actOnScanner(browser, token, "SUCCESSFUL");
  await expect(teller.getByTestId("state-badge")).toHaveText("Successful", { timeout: 30_000 });

  const supervisor = await signedInPage(browser, "supervisor.kumasi");
  await supervisor.goto("/review");
  await expect(supervisor.locator(`[data-token="${token}"]`)).toBeVisible();
  const exported = await supervisor.request.get("/api/review/export");
  expect(exported.status()).toBe(200);
  expect(await exported.text()).toContain(token);
  await supervisor.goto(`/tokens/${id}`);
  await expect(supervisor.getByTestId("state-badge")).toHaveText("Successful");

  // Whichever instance draws it, the Operations page lists both, running, from their heartbeats.
  const admin = await signedInPage(browser, "admin");
  await admin.goto("/admin/operations");
  for (const name of ["A", "B"] as const) {
    const rows = admin.getByTestId("instances").locator(nextServerPids(name).map((pid) => `tr[data-instance-pid="${pid}"]`).join(", "));
    await expect(rows.first(), `instance ${name} on the Operations page`).toHaveAttribute("data-status", "running");
  }
  await admin.context().close();

  // Round-robin: the requests of this one flow were answered by both instances.
  const answeredBy = new Set(upstreamsSince(logMark));
  expect([...answeredBy].sort()).toEqual([`127.0.0.1:${ports.instanceA}`, `127.0.0.1:${ports.instanceB}`]);
  await teller.context().close();
  await supervisor.context().close();
});

test(`${OPEN_TOKENS} open tokens and two watchers: both poll, never the same token twice in one cadence, no more calls than one instance`, async ({ browser }) => {
  test.setTimeout(240_000);
  const teller = await signedInPage(browser, "teller.accra");
  for (let index = 0; index < OPEN_TOKENS; index += 1) openTokens.push(await issueFingerprintToken(teller, newCustomer()));
  await teller.context().close();

  // Nobody watches them now: each is due every UNWATCHED_POLL_MS. Count each watcher's polls over
  // 40 s from its own metrics (a lease lasts only as long as its poll, a few milliseconds, so
  // sampling the leases could miss an instance that did poll).
  const pollsBefore = { A: await watcherPollsOf("A"), B: await watcherPollsOf("B") };
  const windowStart = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 40_000));
  const windowEnd = Date.now();
  const polls = { A: (await watcherPollsOf("A")) - pollsBefore.A, B: (await watcherPollsOf("B")) - pollsBefore.B };
  expect(polls.A, `instance A's watcher polled (A ${polls.A}, B ${polls.B})`).toBeGreaterThan(0);
  expect(polls.B, `instance B's watcher polled (A ${polls.A}, B ${polls.B})`).toBeGreaterThan(0);

  const calls = (await listCalls()).filter((call) => Date.parse(call.at) >= windowStart && Date.parse(call.at) <= windowEnd);
  const byToken = stateCallsByToken(calls, openTokens.map((open) => open.token));
  const perToken = [...byToken.values()];
  const gaps = perToken.flatMap((times) => times.slice(1).map((time, index) => time - times[index]!));
  // Two instances asking about one token would leave gaps far under one instance's shortest.
  expect(Math.min(...gaps)).toBeGreaterThanOrEqual(SHORTEST_SINGLE_INSTANCE_GAP_MS);
  // Every token was followed, at one instance's pace: at most one call per shortest gap.
  const windowMs = windowEnd - windowStart;
  for (const times of perToken) {
    expect(times.length).toBeGreaterThanOrEqual(Math.floor(windowMs / (UNWATCHED_POLL_MS * 1.1)) - 1);
    // (Two instances each polling it would make about twice as many.)
    expect(times.length).toBeLessThanOrEqual(Math.ceil(windowMs / (UNWATCHED_POLL_MS * 0.9)) + 2);
  }
  console.log(`status calls per token in ${Math.round(windowMs / 1000)} s: ${perToken.map((times) => times.length).join(" ")}; shortest gap ${Math.min(...gaps)} ms; polls by A ${polls.A}, by B ${polls.B}`);
});

test("SIGTERM on one instance: its leases are handed back at once, its tokens go on, and no page request fails", async ({ browser }) => {
  test.setTimeout(120_000);
  expect(openTokens).toHaveLength(OPEN_TOKENS);
  // A teller keeps a token page open through nginx the whole time.
  const teller = await signedInPage(browser, "teller.accra");
  const failed: string[] = [];
  teller.on("response", (response) => {
    if (response.url().includes("/api/") && response.status() >= 500) failed.push(`${response.status()} ${response.url()}`);
  });
  // ERR_ABORTED is the page cancelling its own request (a prefetch, a poll superseded by the next).
  teller.on("requestfailed", (request) => {
    const reason = request.failure()?.errorText ?? "";
    if (!reason.includes("ERR_ABORTED")) failed.push(`${reason} ${request.url()}`);
  });
  await teller.goto(`/tokens/${openTokens[0]!.id}`);

  const pidsOfB = nextServerPids("B");
  const prefixesB = ownerPrefixesOf(pidsOfB);
  const isB = (owner: string) => prefixesB.some((prefix) => owner.startsWith(prefix));
  await expect.poll(async () => (await leasesNow()).filter((lease) => isB(lease.owner)).length, { timeout: 20_000, intervals: [100] }).toBeGreaterThan(0);

  const groups = nextServerGroups("B");
  expect(groups).toHaveLength(1);
  const errorLogMark = statSync(nginxErrorLog()).size;
  const stoppedAt = Date.now();
  process.kill(-groups[0]!, "SIGTERM");
  await exited(instanceB!);
  expect(Date.now() - stoppedAt).toBeLessThan(20_000);
  // Handed back, not left to run out; and its heartbeat row is gone (it said goodbye).
  expect((await leasesNow()).filter((lease) => isB(lease.owner))).toEqual([]);
  const heartbeatsOfB = await database.query("SELECT instance_id FROM instance_heartbeats WHERE pid = ANY($1::int[])", [pidsOfB]);
  expect(heartbeatsOfB.rows).toEqual([]);

  // The page goes on through the other instance; every open token is asked about again within a cadence or two.
  await teller.waitForTimeout(2 * UNWATCHED_POLL_MS + 2_000);
  const after = (await listCalls()).filter((call) => Date.parse(call.at) > stoppedAt);
  const asked = stateCallsByToken(after, openTokens.map((open) => open.token));
  expect([...asked].filter(([, times]) => times.length === 0).map(([token]) => token)).toEqual([]);
  // nginx says why when it answered itself (e.g. "no live upstreams").
  expect(failed, readFileSync(nginxErrorLog(), "utf8").slice(errorLogMark)).toEqual([]);
  await teller.context().close();
});

test("SIGKILL on one instance: the other takes its tokens when their leases run out, and the result reaches the page", async ({ browser }) => {
  test.setTimeout(180_000);
  instanceB = startInstanceB();
  await waitUntilReady(ports.instanceB);
  const prefixesB = ownerPrefixesOf(nextServerPids("B"));
  const isB = (owner: string) => prefixesB.some((prefix) => owner.startsWith(prefix));
  let heldByB: { id: string; token: string }[] = [];
  await expect
    .poll(async () => (heldByB = (await leasesNow()).filter((lease) => isB(lease.owner))).length, { timeout: 30_000, intervals: [100] })
    .toBeGreaterThan(0);

  const groups = nextServerGroups("B");
  expect(groups).toHaveLength(1);
  const killedAt = Date.now();
  process.kill(-groups[0]!, "SIGKILL");
  await exited(instanceB!);

  // The customer of a token B was polling finishes meanwhile; the teller's page shows it.
  const orphan = heldByB[0]!;
  await actOnScanner(browser, orphan.token, "SUCCESSFUL");
  const teller = await signedInPage(browser, "teller.accra");
  await teller.goto(`/tokens/${orphan.id}`);
  await expect(teller.getByTestId("state-badge")).toHaveText("Successful", { timeout: LEASE_MS + 3 * UNWATCHED_POLL_MS });

  // Every token B held is asked about by A within the lease plus a cadence.
  await teller.waitForTimeout(Math.max(0, killedAt + LEASE_MS + UNWATCHED_POLL_MS * 1.5 - Date.now()));
  const after = (await listCalls()).filter((call) => Date.parse(call.at) > killedAt);
  const asked = stateCallsByToken(after, heldByB.map((lease) => lease.token));
  expect([...asked].filter(([, times]) => times.length === 0).map(([token]) => token)).toEqual([]);
  await teller.context().close();
});

test("two instances' webhook workers deliver each token.finished once, signed", async ({ browser }) => {
  test.setTimeout(180_000);
  instanceB = startInstanceB();
  await waitUntilReady(ports.instanceB);

  // The bank's receiver, on this machine (loopback is allowed outside production).
  const received: { body: string; headers: IncomingHttpHeaders }[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverPort = (receiver.address() as { port: number }).port;
  try {
    // As an operator proposes the first endpoint, on the shared database while both instances run;
    // an administrator approves it in the app and is shown its secret there, once (ADR 0052).
    const receiverUrl = `http://127.0.0.1:${receiverPort}/veridesk`;
    const added = execFileSync("npx", ["tsx", "--conditions=react-server", "scripts/webhooks-add.ts", "--url", receiverUrl, "--events", "token.finished"], {
      encoding: "utf8",
      env: { ...process.env, ...instanceEnv("A") },
    });
    expect(added).not.toContain("whsec_");
    const admin = await signedInPage(browser, "admin");
    await admin.goto("/admin/webhooks");
    const row = admin.locator(`tr[data-endpoint="${receiverUrl}"]`);
    await row.getByRole("button", { name: "Approve" }).click();
    await expect(row).toContainText("Active");
    const secret = (await admin.getByTestId("webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await admin.context().close();

    // The open tokens' customers finish now; either watcher closes each, either worker sends it.
    const stillOpen = await database.query<{ id: string; token: string }>("SELECT id, token FROM token_requests WHERE token = ANY($1::text[]) AND finished_at IS NULL", [
      openTokens.map((open) => open.token),
    ]);
    expect(stillOpen.rows.length).toBeGreaterThan(10);
    for (const { token } of stillOpen.rows) {
      await fetch(`${sandboxUrl}/sandbox/api/tokens/${token}/use`, { method: "POST" });
      const decided = await fetch(`${sandboxUrl}/sandbox/api/tokens/${token}/result`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: "SUCCESSFUL" }),
      });
      expect(decided.ok).toBe(true);
    }
    const expectedIds = stillOpen.rows.map((row) => row.id).sort();
    const deliveredIds = () => new Set(received.map((delivery) => (JSON.parse(delivery.body) as { data: { id: string } }).data.id));
    await expect.poll(() => deliveredIds().size, { timeout: 90_000, intervals: [1_000] }).toBe(expectedIds.length);
    // A little longer, for any second delivery a race would have made.
    await new Promise((resolve) => setTimeout(resolve, 2 * UNWATCHED_POLL_MS));

    const webhook = new Webhook(secret);
    const events = received.map((delivery) => webhook.verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; data: { id: string; state: string } });
    expect(events.every((event) => event.type === "token.finished" && event.data.state === "successful")).toBe(true);
    expect([...deliveredIds()].sort()).toEqual(expectedIds);
    const webhookIds = received.map((delivery) => String(delivery.headers["webhook-id"]));
    expect(webhookIds.length, "each event sent once").toBe(new Set(webhookIds).size);
    expect(webhookIds.length).toBe(expectedIds.length);
  } finally {
    receiver.close();
  }
});
