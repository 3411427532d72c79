import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "@/lib/db/types";
import { tokenRequests, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { encryptContactFields } from "@/lib/pii";
import { createUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { createDrizzleWatcherStore } from "@/lib/watcher/drizzle-store";
import { watcherSettingsFrom } from "@/lib/watcher/settings";
import { createWatcher } from "@/lib/watcher/watcher";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { seedIssuedTokens } from "@/test/kit/issued-tokens";
import { approveEndpoint, proposeEndpointAsOperator, sendTestEvent } from "./endpoints";
import { enqueueTestEvent, enqueueTokenFinished } from "./outbox";
import { tokenFinishedWebhookSchema, webhookTestWebhookSchema } from "./schemas";
import { sendWebhook } from "./send";
import { signatureHeader, signingSecrets, webhookIdOf } from "./signing";
import { approveSecretRotation, proposeSecretRotation } from "./secret-rotations";
import { bodyOf, leaseDueDeliveries } from "./store";
import { createWebhookWorker } from "./worker";

/**
 * Webhooks end to end against real pieces: the sandbox as its own process (the watcher closes a
 * token on it), a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set) and a real
 * receiver on a free port that verifies every delivery with the `standardwebhooks` library.
 */

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const sandboxPort = 4612;
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const apiKey = "webhooks-test-key";
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const keys = scratchPiiKeys();
const admin = { userId: "admin-1", username: "a.admin" };
const secondAdmin = { userId: "admin-2", username: "b.admin" };
const rules = { policy: { allowedCidrs: ["127.0.0.1/32"] }, requireHttps: false };

type Received = { headers: IncomingHttpHeaders; body: string; at: Date };

/** The bank's receiver: records each request's raw body and answers the next status in `answers` (200 when none). */
async function startReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: new Date() });
      response.writeHead(answers.shift() ?? 200, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/veridesk`;
  return {
    url,
    received,
    answers,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function headersOf(entry: Received): Record<string, string> {
  return { "webhook-id": String(entry.headers["webhook-id"]), "webhook-timestamp": String(entry.headers["webhook-timestamp"]), "webhook-signature": String(entry.headers["webhook-signature"]) };
}

function workerOn(db: Database, clock: { now: Date }, owner?: string) {
  return createWebhookWorker({
    db,
    keys: () => keys,
    logger: silent,
    now: () => new Date(clock.now),
    random: () => 0.5,
    owner,
    settings: { tickMs: 1_000, leaseMs: 60_000, maxInFlight: 8, policy: rules.policy, requireHttps: false, timeoutMs: 5_000 },
  });
}

let sandbox: ChildProcess | undefined;
let upstream: UpstreamClient;

beforeAll(async () => {
  sandbox = spawn(process.execPath, ["--import", "tsx", "sandbox/server.ts"], {
    cwd: repoRoot,
    env: { ...process.env, SANDBOX_PORT: String(sandboxPort), SANDBOX_API_KEY: apiKey },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (sandbox.exitCode !== null) throw new Error("the sandbox exited at start");
    try {
      if ((await fetch(`${sandboxUrl}/sandbox/api/clock`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error("the sandbox did not start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  upstream = createUpstreamClient({ baseUrl: sandboxUrl, apiKey, timeoutMs: 3000, logger: silent });
});

afterAll(async () => {
  if (!sandbox || sandbox.exitCode !== null) return;
  const exited = new Promise((resolve) => sandbox?.once("exit", resolve));
  sandbox.kill("SIGTERM");
  await exited;
});

forEachDatabase("webhooks", (driver) => {
  let scratch: ScratchDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "webhooks" });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await scratch?.destroy();
  });

  async function freshEndpoint(url = receiver.url) {
    receiver.received.length = 0;
    receiver.answers.length = 0;
    // Only one endpoint is active at a time in this file: the earlier ones are switched off.
    await scratch.db.update(webhookEndpoints).set({ status: "disabled" }).where(eq(webhookEndpoints.status, "active"));
    const proposed = await proposeEndpointAsOperator(scratch.db, "webhooks:add", { url, events: ["token.finished"] }, rules, new Date());
    return approveEndpoint(scratch.db, secondAdmin, proposed.id, new Date(), keys);
  }

  it("a token finishing on the sandbox produces exactly one token.finished, signed, through the watcher's store", async () => {
    const { secret } = await freshEndpoint();
    const clock = { now: new Date() };
    const [token] = await seedIssuedTokens(scratch.db, upstream, 1, clock.now);
    await scratch.db.update(tokenRequests).set(encryptContactFields(token!.id, { reference: "ACC-0042 / 024 123 4567" }, keys)).where(eq(tokenRequests.id, token!.id));
    const watcher = createWatcher({
      store: createDrizzleWatcherStore(scratch.db),
      source: upstream,
      settings: watcherSettingsFrom({
        WATCHER_TICK_MS: 1000, WATCHER_WATCHED_POLL_MS: 2000, WATCHER_UNWATCHED_POLL_MS: 6000, WATCHER_MAX_IN_FLIGHT: 8,
        WATCHER_CALLS_PER_SECOND: 100, WATCHER_MAX_BACKOFF_SECONDS: 300, WATCHER_FOLLOW_USED_MINUTES: 120, UPSTREAM_TIMEOUT_MS: 3000,
      }),
      logger: silent,
      now: () => new Date(clock.now),
    });
    expect(await watcher.runOnce()).toBe(1);
    const worker = workerOn(scratch.db, clock);
    expect(await worker.runOnce()).toBe(0); // still waiting: nothing to say yet

    const result = await fetch(`${sandboxUrl}/sandbox/api/tokens/${token!.token}/result`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ status: "SUCCESSFUL" }),
    });
    expect(result.ok).toBe(true);
    clock.now = new Date(clock.now.getTime() + 7_000);
    expect(await watcher.runOnce()).toBe(1);
    // Closing it again (a replayed save) adds nothing: one event per token and endpoint.
    await scratch.db.transaction((tx) => enqueueTokenFinished(tx, token!.id, clock.now));
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    await watcher.stop();

    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    const event = tokenFinishedWebhookSchema.parse(new Webhook(secret).verify(delivery!.body, headersOf(delivery!)));
    const [row] = await scratch.db.select().from(tokenRequests).where(eq(tokenRequests.id, token!.id));
    // The reference as the API shows it: the phone typed into it is masked (with the account number before it: one run of digits).
    expect(event.data).toMatchObject({ id: token!.id, reference: "ACC-004 ••••••• 4567", kind: "fingerprint", state: "successful" });
    expect(event.data.result).toEqual({ status: "SUCCESSFUL", transaction_number: row!.transactionNumber, error: null });
    expect(delivery!.body).not.toMatch(/GHA-|phone|123 4567/i);
    const [stored] = await scratch.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.tokenRequestId, token!.id));
    expect(stored).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
    expect(delivery!.headers["webhook-id"]).toBe(webhookIdOf(stored!.id));

    // Two phones in a row, or a dotted one, written by the issuing form's encryption, and the same
    // as a copy stored under the old rule (which kept a run of 13+ digits whole): masked as they leave.
    for (const [reference, expected] of [
      ["0241234567 0201234567", "024 ••••••••••••• 4567"],
      ["024.123.4567", "024 ••• 4567"],
    ] as const) {
      await scratch.db.update(tokenRequests).set(encryptContactFields(token!.id, { reference }, keys)).where(eq(tokenRequests.id, token!.id));
      expect(JSON.parse(await bodyOf(scratch.db, stored!)).data.reference, reference).toBe(expected);
      await scratch.db.update(tokenRequests).set({ referenceMasked: reference }).where(eq(tokenRequests.id, token!.id));
      expect(JSON.parse(await bodyOf(scratch.db, stored!)).data.reference, `${reference}, stored unmasked`).toBe(expected);
    }

    // Sent again after the customer's contact data is erased: the note, as the API says it.
    await scratch.db
      .update(tokenRequests)
      .set({ referenceMasked: null, referenceEncrypted: null, contactErasedAt: new Date("2031-03-03T10:00:00Z"), contactErasedUnder: "retention" })
      .where(eq(tokenRequests.id, token!.id));
    expect(JSON.parse(await bodyOf(scratch.db, stored!)).data.reference).toBe("erased on 3 Mar 2031 under the retention policy");
  });

  it("retries a 500 with the same webhook-id and a new timestamp, and logs each attempt", async () => {
    const { endpoint, secret } = await freshEndpoint();
    const clock = { now: new Date() };
    receiver.answers.push(500);
    const deliveryId = await sendTestEvent(scratch.db, admin, endpoint.id, clock.now);
    const worker = workerOn(scratch.db, clock);
    expect(await worker.runOnce()).toBe(1);
    const [afterFirst] = await scratch.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    expect(afterFirst).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    // The first retry waits about 5 s.
    expect(afterFirst!.nextAttemptAt.getTime() - clock.now.getTime()).toBe(5_000);
    expect(await worker.runOnce()).toBe(0);

    clock.now = new Date(clock.now.getTime() + 6_000);
    expect(await worker.runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(Number(second!.headers["webhook-timestamp"]) - Number(first!.headers["webhook-timestamp"])).toBe(6);
    // Both verify with the secret (the test clock is the real one here, give or take seconds).
    webhookTestWebhookSchema.parse(new Webhook(secret).verify(second!.body, headersOf(second!)));
    const attempts = await scratch.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(webhookAttempts.attemptNumber);
    expect(attempts.map((attempt) => [attempt.attemptNumber, attempt.statusCode, attempt.responseExcerpt])).toEqual([
      [1, 500, "thanks"],
      [2, 200, "thanks"],
    ]);
  });

  it("a tampered body, a wrong secret and a 6-minute-old timestamp fail verification", async () => {
    const { endpoint, secret } = await freshEndpoint();
    // Signed six minutes ago: the worker's clock is set back.
    const clock = { now: new Date(Date.now() - 6 * 60_000) };
    await sendTestEvent(scratch.db, admin, endpoint.id, clock.now);
    const worker = workerOn(scratch.db, clock);
    expect(await worker.runOnce()).toBe(1);
    const stale = receiver.received[0]!;
    expect(() => new Webhook(secret).verify(stale.body, headersOf(stale))).toThrow(/timestamp/i);

    clock.now = new Date();
    await sendTestEvent(scratch.db, admin, endpoint.id, clock.now);
    await worker.runOnce();
    const fresh = receiver.received.at(-1)!;
    expect(() => new Webhook(secret).verify(fresh.body, headersOf(fresh))).not.toThrow();
    expect(() => new Webhook(secret).verify(fresh.body.replace("webhook.test", "webhook.tesT"), headersOf(fresh))).toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(fresh.body, headersOf(fresh))).toThrow();
  });

  it("during a rotation both secrets verify; after the overlap only the new one", async () => {
    const { endpoint, secret: oldSecret } = await freshEndpoint();
    const clock = { now: new Date() };
    const rotation = await proposeSecretRotation(scratch.db, admin, endpoint.id, 24, clock.now);
    const { secret: newSecret } = await approveSecretRotation(scratch.db, secondAdmin, endpoint.id, rotation.id, clock.now, keys);
    await sendTestEvent(scratch.db, admin, endpoint.id, clock.now);
    const worker = workerOn(scratch.db, clock);
    expect(await worker.runOnce()).toBe(1);
    const during = receiver.received.at(-1)!;
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(during.body, headersOf(during))).not.toThrow();
    expect(() => new Webhook(newSecret).verify(during.body, headersOf(during))).not.toThrow();

    const [row] = await scratch.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    const later = new Date(clock.now.getTime() + 25 * 3_600_000);
    expect(signingSecrets(row!, later, keys)).toEqual([newSecret]);
  });

  it("a worker killed mid-delivery: after its lease the event goes again, with the same webhook-id", async () => {
    const { endpoint, secret } = await freshEndpoint();
    const clock = { now: new Date() };
    const deliveryId = await enqueueTestEvent(scratch.db, endpoint.id, admin.username, clock.now);
    // The first worker leases, sends, and dies before recording anything.
    const [leased] = await leaseDueDeliveries(scratch.db, { owner: "killed-worker", now: clock.now, leaseMs: 60_000, limit: 10 });
    const body = await bodyOf(scratch.db, leased!.delivery);
    const webhookId = webhookIdOf(leased!.delivery.id);
    await sendWebhook(
      endpoint.url,
      {
        "webhook-id": webhookId,
        "webhook-timestamp": String(Math.floor(clock.now.getTime() / 1000)),
        "webhook-signature": signatureHeader([secret], webhookId, clock.now, body),
      },
      body,
      { ...rules },
    );
    const restarted = workerOn(scratch.db, clock);
    expect(await restarted.runOnce()).toBe(0); // the lease still holds
    clock.now = new Date(clock.now.getTime() + 61_000);
    expect(await restarted.runOnce()).toBe(1);
    expect(receiver.received.map((entry) => entry.headers["webhook-id"])).toEqual([webhookId, webhookId]);
    for (const entry of receiver.received) expect(() => new Webhook(secret).verify(entry.body, headersOf(entry))).not.toThrow();
    const [row] = await scratch.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    expect(row).toMatchObject({ status: "delivered", attempts: 1, leaseOwner: null });
  });

  it("410 disables the endpoint at once; five days of failures disable it too", async () => {
    const { endpoint } = await freshEndpoint();
    const clock = { now: new Date() };
    receiver.answers.push(410);
    await sendTestEvent(scratch.db, admin, endpoint.id, clock.now);
    const worker = workerOn(scratch.db, clock);
    await worker.runOnce();
    const [gone] = await scratch.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(gone).toMatchObject({ status: "disabled", disabledReason: "gone" });

    const { endpoint: failing } = await freshEndpoint();
    await scratch.db.update(webhookEndpoints).set({ failingSince: new Date(clock.now.getTime() - 5 * 24 * 3_600_000) }).where(eq(webhookEndpoints.id, failing.id));
    receiver.answers.push(503);
    await sendTestEvent(scratch.db, admin, failing.id, clock.now);
    await worker.runOnce();
    const [stale] = await scratch.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, failing.id));
    expect(stale).toMatchObject({ status: "disabled", disabledReason: "failing" });
  });

  if (driver === "postgres") {
    it("two workers on one PostgreSQL database deliver each event once", async () => {
      const { endpoint } = await freshEndpoint();
      const clock = { now: new Date() };
      for (let index = 0; index < 20; index += 1) await enqueueTestEvent(scratch.db, endpoint.id, admin.username, clock.now);
      const other = await scratch.openAgain("second instance");
      try {
        const first = workerOn(scratch.db, clock, "instance-a");
        const second = workerOn(other.db, clock, "instance-b");
        let sent = 0;
        for (let round = 0; round < 5; round += 1) {
          const [a, b] = await Promise.all([first.runOnce(), second.runOnce()]);
          sent += a + b;
        }
        expect(sent).toBe(20);
        const ids = receiver.received.map((entry) => entry.headers["webhook-id"]);
        expect(ids).toHaveLength(20);
        expect(new Set(ids).size).toBe(20);
      } finally {
        await other.close();
      }
    });
  }
});
