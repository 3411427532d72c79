import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { webhookEndpoints } from "@/lib/db/schema";
import { makeScratchDatabase, pgliteDataDirOf, scratchPiiKeys } from "@/test/kit/database";
import { runOperatorScript } from "@/test/kit/operator-scripts";
import { approveEndpoint, sendTestEvent } from "./endpoints";
import { createWebhookWorker } from "./worker";

/**
 * `npm run webhooks:add` on the embedded database before the app starts: the endpoint is a
 * proposal, and the operator is shown no secret; an administrator's approval makes the one
 * deliveries are signed with (ADR 0052).
 */

const keys = scratchPiiKeys();
const silent = { info() {}, warn() {}, error() {} };

const runAdd = (pgliteDataDir: string, args: string[]) => runOperatorScript("scripts/webhooks-add.ts", args, { pgliteDataDir, keys });

describe("npm run webhooks:add", () => {
  it("proposes an endpoint on the embedded database and prints no secret; an administrator's approval makes the one deliveries carry; a refused address exits 1", async () => {
    const received: Array<{ headers: Record<string, string>; body: string }> = [];
    const receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        received.push({ headers: request.headers as Record<string, string>, body });
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/veridesk`;
    const scratch = await makeScratchDatabase({ driver: "pglite", name: "webhooks-cli" });
    try {
      const added = runAdd(pgliteDataDirOf(scratch), ["--url", url, "--events", "token.finished", "--description", "Onboarding app"]);
      expect(added.status, added.stderr).toBe(0);
      expect(added.stdout).toMatch(/Proposed webhook endpoint .* an administrator approves it/s);
      expect(added.stdout + added.stderr).not.toMatch(/whsec_/);

      const refused = runAdd(pgliteDataDirOf(scratch), ["--url", "http://169.254.169.254/latest"]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/never allowed/);

      const opened = await scratch.open("after webhooks:add");
      try {
        const endpoints = await opened.db.select().from(webhookEndpoints);
        expect(endpoints.map((endpoint) => [endpoint.url, endpoint.status, endpoint.events, endpoint.proposedByUsername, endpoint.secretEncrypted])).toEqual([
          [url, "pending", ["token.finished"], "webhooks:add", null],
        ]);
        const admin = { userId: "admin-1", username: "a.admin" };
        await expect(sendTestEvent(opened.db, admin, endpoints[0]!.id, new Date())).rejects.toThrow(/not active/);
        const { secret } = await approveEndpoint(opened.db, admin, endpoints[0]!.id, new Date(), keys);
        await sendTestEvent(opened.db, admin, endpoints[0]!.id, new Date());
        const worker = createWebhookWorker({
          db: opened.db,
          keys: () => keys,
          logger: silent,
          settings: { tickMs: 1_000, leaseMs: 60_000, maxInFlight: 2, policy: { allowedCidrs: ["127.0.0.1/32"] }, requireHttps: false },
        });
        expect(await worker.runOnce()).toBe(1);
        expect(received).toHaveLength(1);
        expect(new Webhook(secret).verify(received[0]!.body, received[0]!.headers)).toMatchObject({ type: "webhook.test" });
      } finally {
        await opened.close();
      }
    } finally {
      await scratch.destroy();
      await new Promise((resolve) => receiver.close(resolve));
    }
    // Two processes, the first of which migrates a new database: slow on a busy two-core machine.
  }, 180_000);
});
