import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { approveEndpoint, decideUrlChange, deliveryLog, findEndpoint, listEndpoints, proposeEndpoint, proposeUrlChange, recoverFailedSince, rejectEndpoint, resendDelivery, sendTestEvent } from "./endpoints";
import { leaseDueDeliveries } from "./store";

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
    const endpoint = await proposeEndpoint(scratch.db, first, { url: "http://127.0.0.1:9/hook" }, rules, now);
    expect(endpoint.status).toBe("pending");
    await expect(sendTestEvent(scratch.db, first, endpoint.id, now)).rejects.toThrow(/not active/);
    await expect(approveEndpoint(scratch.db, first, endpoint.id, now, keys)).rejects.toThrow(/separation of duties/);
    const approved = await approveEndpoint(scratch.db, second, endpoint.id, now, keys);
    expect(approved.endpoint).toMatchObject({ status: "active", decidedByUsername: "a.second" });
    await expect(approveEndpoint(scratch.db, second, endpoint.id, now, keys)).rejects.toThrow(/no longer waiting/);

    const rejected = await proposeEndpoint(scratch.db, first, { url: "http://127.0.0.1:9/other" }, rules, now);
    await rejectEndpoint(scratch.db, second, rejected.id, now);
    expect((await listEndpoints(scratch.db)).map((listed) => [listed.url, listed.status])).toEqual([["http://127.0.0.1:9/hook", "active"]]);
    const actions = (await scratch.db.select({ action: auditEvents.action }).from(auditEvents)).map((row) => row.action);
    expect(actions).toEqual(["webhook.endpoint_proposed", "webhook.endpoint_approved", "webhook.endpoint_proposed", "webhook.endpoint_rejected"]);
  });

  it("refuses a URL pointing at a refused address when it is registered", async () => {
    await expect(proposeEndpoint(scratch.db, first, { url: "http://169.254.169.254/latest" }, rules, new Date())).rejects.toThrow(/never allowed/);
    await expect(proposeEndpoint(scratch.db, first, { url: "http://bank.example/hook" }, { ...rules, requireHttps: true }, new Date())).rejects.toThrow(/https/);
  });

  it("a new URL: checked as a new endpoint's, approved by another administrator, audited; until then deliveries keep the old one", async () => {
    const now = new Date();
    const endpoint = await proposeEndpoint(scratch.db, first, { url: "http://127.0.0.1:9/before" }, rules, now);
    await expect(proposeUrlChange(scratch.db, second, endpoint.id, "http://127.0.0.1:9/after", rules, now)).rejects.toThrow(/still waiting for approval/);
    await approveEndpoint(scratch.db, second, endpoint.id, now, keys);
    await scratch.db.update(webhookEndpoints).set({ failingSince: now }).where(eq(webhookEndpoints.id, endpoint.id));

    // The same address checks as a new endpoint's.
    for (const refused of ["http://169.254.169.254/latest", "http://[::ffff:127.0.0.1]/hook", "http://0.0.0.0/hook", "http://10.0.0.5/hook"]) {
      await expect(proposeUrlChange(scratch.db, first, endpoint.id, refused, rules, now), refused).rejects.toThrow(/The URL|webhook URL/);
    }
    await expect(proposeUrlChange(scratch.db, first, endpoint.id, "http://127.0.0.1:9/after", { ...rules, requireHttps: true }, now)).rejects.toThrow(/https/);
    await expect(proposeUrlChange(scratch.db, first, endpoint.id, "http://127.0.0.1:9/before", rules, now)).rejects.toThrow(/unchanged/);

    await proposeUrlChange(scratch.db, first, endpoint.id, "http://127.0.0.1:9/after", rules, now);
    expect(await findEndpoint(scratch.db, endpoint.id)).toMatchObject({ url: "http://127.0.0.1:9/before", proposedUrl: "http://127.0.0.1:9/after", urlProposedByUsername: "a.first" });
    const deliveryId = await sendTestEvent(scratch.db, first, endpoint.id, now);
    const leased = await leaseDueDeliveries(scratch.db, { owner: "worker", now, leaseMs: 1_000, limit: 10 });
    expect(leased.filter((one) => one.delivery.id === deliveryId).map((one) => one.endpoint.url)).toEqual(["http://127.0.0.1:9/before"]);
    await expect(decideUrlChange(scratch.db, first, endpoint.id, "approve", "http://127.0.0.1:9/after", rules)).rejects.toThrow(/separation of duties/);
    await expect(decideUrlChange(scratch.db, second, endpoint.id, "approve", "http://127.0.0.1:9/elsewhere", rules)).rejects.toThrow(/no URL change/);
    // The allowed addresses narrowed since the proposal: the approval checks again.
    await expect(decideUrlChange(scratch.db, second, endpoint.id, "approve", "http://127.0.0.1:9/after", { ...rules, policy: { allowedCidrs: [] } })).rejects.toThrow(/webhook URL/);
    await decideUrlChange(scratch.db, second, endpoint.id, "approve", "http://127.0.0.1:9/after", rules);
    expect(await findEndpoint(scratch.db, endpoint.id)).toMatchObject({ url: "http://127.0.0.1:9/after", proposedUrl: null, urlProposedByUserId: null, failingSince: null, status: "active" });

    // The proposer may withdraw their own proposal.
    await proposeUrlChange(scratch.db, first, endpoint.id, "http://127.0.0.1:9/third", rules, now);
    await decideUrlChange(scratch.db, first, endpoint.id, "reject", "http://127.0.0.1:9/third", rules);
    expect(await findEndpoint(scratch.db, endpoint.id)).toMatchObject({ url: "http://127.0.0.1:9/after", proposedUrl: null });

    const audit = await scratch.db.select({ action: auditEvents.action, details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.subjectId, endpoint.id));
    expect(audit.filter((row) => row.action.includes("url")).map((row) => [row.action, row.details])).toEqual([
      ["webhook.endpoint_url_proposed", { from: "http://127.0.0.1:9/before", to: "http://127.0.0.1:9/after" }],
      ["webhook.endpoint_url_changed", { from: "http://127.0.0.1:9/before", to: "http://127.0.0.1:9/after", proposedBy: "a.first" }],
      ["webhook.endpoint_url_proposed", { from: "http://127.0.0.1:9/after", to: "http://127.0.0.1:9/third" }],
      ["webhook.endpoint_url_change_rejected", { from: "http://127.0.0.1:9/after", to: "http://127.0.0.1:9/third", proposedBy: "a.first" }],
    ]);
    // Back to one active endpoint, as the next test expects.
    await scratch.db.update(webhookEndpoints).set({ status: "rejected" }).where(eq(webhookEndpoints.id, endpoint.id));
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
