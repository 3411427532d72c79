import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, webhookDeliveries } from "@/lib/db/schema";
import { openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { approveEndpoint, deliveryLog, listEndpoints, proposeEndpoint, recoverFailedSince, rejectEndpoint, resendDelivery, sendTestEvent } from "./endpoints";

/** An endpoint is a grant of customer outcomes: a second administrator approves it (ADR 0020). */

const keys = scratchPiiKeys();
const rules = { policy: { allowedCidrs: ["127.0.0.1/32"] }, requireHttps: false };
const first = { userId: "admin-1", username: "a.first" };
const second = { userId: "admin-2", username: "a.second" };

describe("webhook endpoints on the admin page", () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver: "pglite", name: "webhook-endpoints" });
  });
  afterAll(async () => {
    await scratch?.destroy();
  });

  it("a proposal receives nothing until another administrator approves it; the proposer cannot", async () => {
    const now = new Date();
    const { endpoint, secret } = await proposeEndpoint(scratch.db, first, { url: "http://127.0.0.1:9/hook" }, rules, now, keys);
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint.status).toBe("pending");
    await expect(sendTestEvent(scratch.db, first, endpoint.id, now)).rejects.toThrow(/not active/);
    await expect(approveEndpoint(scratch.db, first, endpoint.id, now)).rejects.toThrow(/separation of duties/);
    const approved = await approveEndpoint(scratch.db, second, endpoint.id, now);
    expect(approved).toMatchObject({ status: "active", decidedByUsername: "a.second" });
    await expect(approveEndpoint(scratch.db, second, endpoint.id, now)).rejects.toThrow(/no longer waiting/);

    const { endpoint: rejected } = await proposeEndpoint(scratch.db, first, { url: "http://127.0.0.1:9/other" }, rules, now, keys);
    await rejectEndpoint(scratch.db, second, rejected.id, now);
    expect((await listEndpoints(scratch.db)).map((listed) => [listed.url, listed.status])).toEqual([["http://127.0.0.1:9/hook", "active"]]);
    const actions = (await scratch.db.select({ action: auditEvents.action }).from(auditEvents)).map((row) => row.action);
    expect(actions).toEqual(["webhook.endpoint_proposed", "webhook.endpoint_approved", "webhook.endpoint_proposed", "webhook.endpoint_rejected"]);
  });

  it("refuses a URL pointing at a refused address when it is registered", async () => {
    await expect(proposeEndpoint(scratch.db, first, { url: "http://169.254.169.254/latest" }, rules, new Date(), keys)).rejects.toThrow(/never allowed/);
    await expect(proposeEndpoint(scratch.db, first, { url: "http://bank.example/hook" }, { ...rules, requireHttps: true }, new Date(), keys)).rejects.toThrow(/https/);
  });

  it("resends one delivery and recovers every failed one since a moment, the same deliveries (same webhook-id)", async () => {
    const [endpoint] = await listEndpoints(scratch.db);
    const now = new Date();
    const ids = [await sendTestEvent(scratch.db, second, endpoint!.id, now), await sendTestEvent(scratch.db, second, endpoint!.id, now)];
    await scratch.db.update(webhookDeliveries).set({ status: "failed" }).where(eq(webhookDeliveries.endpointId, endpoint!.id));
    await resendDelivery(scratch.db, second, ids[0]!, now);
    await expect(resendDelivery(scratch.db, second, ids[0]!, now)).rejects.toThrow(/already waiting/);
    expect(await recoverFailedSince(scratch.db, second, endpoint!.id, new Date(now.getTime() - 60_000), now)).toBe(1);
    const log = await deliveryLog(scratch.db, endpoint!.id);
    expect(log.map((entry) => entry.status).sort()).toEqual(["pending", "pending"]);
    expect(new Set(log.map((entry) => entry.id))).toEqual(new Set(ids));
  });
});
