import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries } from "@/lib/db/schema";
import type { Env } from "@/lib/env";
import { resolvePiiKeys } from "@/lib/pii/keys";
import { drillSecrets, freePort, isReady, killAppHard, startApp, stopProcess, waitFor } from "@/test/kit/app-process";
import { copyMigratedPgliteTemplate } from "@/test/kit/pglite-template";

/**
 * The app killed with SIGKILL while a webhook is on the wire: the receiver has the request and
 * holds it open, so the attempt is never recorded. Started again on the same data directory, the
 * app sends the event again — the same webhook-id, a fresh signature that the standardwebhooks
 * library verifies — and records it delivered. The endpoint and the event are written before the
 * first start, as `webhooks:add` and an administrator's "send a test" would.
 *
 * Needs a build: `npx vitest run --project drills test/drills/webhook-crash.drill.ts`.
 */

type Received = { headers: IncomingHttpHeaders; body: string };

const secrets = drillSecrets();
const keys = resolvePiiKeys({ APP_ENV: "test", PII_ENCRYPTION_KEY: secrets.PII_ENCRYPTION_KEY, PII_INDEX_KEY: secrets.PII_INDEX_KEY } as Env);
const received: Received[] = [];
// The first request is never answered: the app dies holding it.
const heldOpen: ServerResponse[] = [];
const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
  request.on("end", () => {
    received.push({ headers: request.headers, body });
    if (received.length === 1) heldOpen.push(response);
    else response.end("ok");
  });
});

let dataDir: string;
let app: ChildProcess | undefined;
let appUrl: string;
let receiverUrl: string;
let secret: string;
let deliveryId: string;

async function openDataDir() {
  const { openDatabase } = await import("@/lib/db/client");
  return openDatabase({ pgliteDataDir: dataDir, label: "webhook crash drill" });
}

const appSettings = () => ({ ...secrets, PGLITE_DATA_DIR: dataDir, WEBHOOK_ALLOWED_CIDRS: "127.0.0.1/32", WATCHER_ENABLED: "false" });

describe("the app killed with SIGKILL mid-delivery", () => {
  beforeAll(async () => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), "veridesk-drill-webhook-")), "pglite");
    // The run's migrated template when there is one (a copy instead of initdb and every migration).
    copyMigratedPgliteTemplate(dataDir);
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/veridesk`;
    appUrl = `http://127.0.0.1:${await freePort()}`;

    const { approveEndpoint, proposeEndpointAsOperator, sendTestEvent } = await import("@/lib/webhooks/endpoints");
    const opened = await openDataDir();
    try {
      const rules = { policy: { allowedCidrs: ["127.0.0.1/32"] }, requireHttps: false };
      const admin = { userId: "drill-admin", username: "drill.admin" };
      const proposed = await proposeEndpointAsOperator(opened.db, "webhook crash drill", { url: receiverUrl, events: ["token.finished"] }, rules, new Date());
      secret = (await approveEndpoint(opened.db, admin, proposed.id, new Date(), keys)).secret;
      deliveryId = await sendTestEvent(opened.db, admin, proposed.id, new Date());
    } finally {
      await opened.close();
    }
  }, 60_000);

  afterAll(async () => {
    for (const response of heldOpen) response.destroy();
    await stopProcess(app);
    // Whatever a failed run left serving (a server outlives its supervisor's SIGKILL).
    if (app) killAppHard(app, appUrl);
    await new Promise((resolve) => receiver.close(resolve));
    if (dataDir) rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  it("after the restart the event arrives, with the same webhook-id, and verifies", async () => {
    app = startApp(appUrl, appSettings());
    await waitFor(async () => received.length >= 1, 90_000, "the first delivery to reach the receiver");
    killAppHard(app, appUrl);
    await waitFor(async () => !(await isReady(appUrl).catch(() => false)), 10_000, "the killed app to stop answering");
    // The connection dies with the process; nothing answered it, so nothing was recorded.
    expect(received).toHaveLength(1);

    app = startApp(appUrl, appSettings());
    await waitFor(async () => received.length >= 2, 90_000, "the delivery to arrive after the restart");
    const [first, second] = received as [Received, Received];
    expect(second.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    const verified = new Webhook(secret).verify(second.body, second.headers as Record<string, string>);
    expect(verified).toMatchObject({ type: "webhook.test" });
    // Sent after a new start: signed with the new attempt's time.
    expect(Number(second.headers["webhook-timestamp"])).toBeGreaterThanOrEqual(Number(first.headers["webhook-timestamp"]));

    await stopProcess(app);
    await waitFor(async () => !(await isReady(appUrl).catch(() => false)), 10_000, "the app to stop");
    // The directory is the app's alone while it runs: read it once the app has stopped.
    let opened: Awaited<ReturnType<typeof openDataDir>> | undefined;
    await waitFor(
      async () => {
        opened = await openDataDir();
        return true;
      },
      30_000,
      "the stopped app to let go of its data directory",
    );
    try {
      const [row] = await opened!.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
      expect(row).toMatchObject({ status: "delivered", attempts: 1, leaseOwner: null });
      expect(received).toHaveLength(2);
    } finally {
      await opened?.close();
    }
  }, 240_000);
});
