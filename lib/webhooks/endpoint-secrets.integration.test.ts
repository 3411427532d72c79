import fs from "node:fs";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditEvents, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { Database } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { approveEndpoint, disableEndpoint, enableEndpoint, findEndpoint, listEndpoints, proposeEndpoint, proposeEndpointAsOperator, rejectEndpoint, sendTestEvent } from "./endpoints";
import { signingSecrets } from "./signing";
import { leaseDueDeliveries } from "./store";

/**
 * A new endpoint's signing secret is the approver's, as a rotated one is (ADR 0052), through the
 * functions the admin page's actions and `webhooks:add` call: the proposer's answer carries no
 * secret and none exists while the proposal waits; the second administrator's approval makes it
 * and returns it once; nothing that reads the endpoint afterwards returns it; a rejected proposal
 * never had one; two approvals at once make one; a waiting endpoint is never signed for.
 */

const keys = scratchPiiKeys();
const rules = { policy: { allowedCidrs: ["127.0.0.1/32"] }, requireHttps: false };
const first = { userId: "admin-1", username: "admin.first" };
const second = { userId: "admin-2", username: "admin.second" };
const third = { userId: "admin-3", username: "admin.third" };

const codeOf = async (attempt: Promise<unknown>) => {
  try {
    await attempt;
    return "done";
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
};

forEachDatabase("a new webhook endpoint's secret", (driver) => {
  let scratch: ScratchDatabase;
  let db: Database;
  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "webhook-endpoint-secrets" });
    db = scratch.opened.db;
  }, 120_000);
  afterAll(async () => {
    await scratch?.destroy();
  });

  const rowOf = async (endpointId: string) => (await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)))[0]!;
  /** Whatever the pages read about endpoints, and the audit trail, as one text to search for a secret. */
  const everythingReadable = async (endpointId: string) =>
    JSON.stringify([await findEndpoint(db, endpointId), await listEndpoints(db), await db.select().from(auditEvents).where(eq(auditEvents.subjectId, endpointId))]);

  it("the proposer is answered without a secret and none exists; the approver alone is shown it, once; reading the endpoint never returns it", async () => {
    const proposed = await proposeEndpoint(db, first, { url: "http://127.0.0.1:9/secret-at-approval" }, rules, new Date());
    expect(JSON.stringify(proposed)).not.toMatch(/whsec_|[sS]ecretEncrypted/);
    expect(proposed.status).toBe("pending");
    expect((await rowOf(proposed.id)).secretEncrypted).toBeNull();

    // The proposer, past the page: refused, and still no secret.
    expect(await codeOf(approveEndpoint(db, first, proposed.id, new Date(), keys))).toBe("FORBIDDEN");
    expect((await rowOf(proposed.id)).secretEncrypted).toBeNull();

    const approved = await approveEndpoint(db, second, proposed.id, new Date(), keys);
    expect(approved.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(approved.endpoint).toMatchObject({ status: "active", decidedByUsername: "admin.second" });
    expect(JSON.stringify(approved.endpoint)).not.toMatch(/whsec_|[sS]ecretEncrypted/);
    // The secret shown is the one deliveries are signed with.
    expect(signingSecrets(await rowOf(proposed.id), new Date(), keys)).toEqual([approved.secret]);

    // Once: a second approval, anyone's, makes no other secret.
    for (const admin of [second, third]) expect(await codeOf(approveEndpoint(db, admin, proposed.id, new Date(), keys))).toBe("CONFLICT");
    expect(signingSecrets(await rowOf(proposed.id), new Date(), keys)).toEqual([approved.secret]);
    const readable = await everythingReadable(proposed.id);
    expect(readable).toContain("http://127.0.0.1:9/secret-at-approval");
    expect(readable).not.toContain(approved.secret);
    expect(readable).not.toMatch(/whsec_|[sS]ecretEncrypted/);
  });

  it("a rejected proposal never had a secret, and is not approved afterwards", async () => {
    const proposed = await proposeEndpoint(db, first, { url: "http://127.0.0.1:9/rejected" }, rules, new Date());
    await rejectEndpoint(db, second, proposed.id, new Date());
    expect(await codeOf(approveEndpoint(db, third, proposed.id, new Date(), keys))).toBe("CONFLICT");
    expect(await rowOf(proposed.id)).toMatchObject({ status: "rejected", secretEncrypted: null, previousSecretEncrypted: null });
    expect(await everythingReadable(proposed.id)).not.toMatch(/whsec_/);

    // Withdrawn by disabling it while it waits: no secret, and it cannot be turned on unapproved.
    const withdrawn = await proposeEndpoint(db, first, { url: "http://127.0.0.1:9/withdrawn" }, rules, new Date());
    await disableEndpoint(db, first, withdrawn.id, new Date());
    expect(await codeOf(enableEndpoint(db, second, withdrawn.id, new Date()))).toBe("CONFLICT");
    expect(await codeOf(approveEndpoint(db, second, withdrawn.id, new Date(), keys))).toBe("CONFLICT");
    expect(await rowOf(withdrawn.id)).toMatchObject({ status: "disabled", secretEncrypted: null });
  });

  it("two approvals at once: one is shown a secret, the other is refused, and the endpoint signs with the one shown", async () => {
    for (let round = 0; round < 3; round++) {
      const proposed = await proposeEndpoint(db, first, { url: `http://127.0.0.1:9/race-${round}` }, rules, new Date());
      const results = await Promise.allSettled([second, third, second, third].map((admin) => approveEndpoint(db, admin, proposed.id, new Date(), keys)));
      const shown = results.flatMap((result) => (result.status === "fulfilled" ? [result.value.secret] : []));
      expect(shown).toHaveLength(1);
      for (const result of results) if (result.status === "rejected") expect((result.reason as AppError).code).toBe("CONFLICT");
      expect(signingSecrets(await rowOf(proposed.id), new Date(), keys)).toEqual(shown);
      const approvals = await db.select().from(auditEvents).where(eq(auditEvents.subjectId, proposed.id));
      expect(approvals.filter((event) => event.action === "webhook.endpoint_approved")).toHaveLength(1);
    }
  });

  it("a waiting endpoint is never signed for: no test, no lease, and the database refuses it active without a secret", async () => {
    const proposed = await proposeEndpoint(db, first, { url: "http://127.0.0.1:9/waiting" }, rules, new Date());
    expect(await codeOf(sendTestEvent(db, second, proposed.id, new Date()))).toBe("CONFLICT");
    // A delivery row for it anyway (as no code path writes one): the worker does not take it.
    const [queued] = await db
      .insert(webhookDeliveries)
      .values({ endpointId: proposed.id, eventType: "webhook.test", payload: {}, occurredAt: new Date(), nextAttemptAt: new Date(0) })
      .returning();
    const leased = await leaseDueDeliveries(db, { owner: "endpoint-secrets", now: new Date(), leaseMs: 1_000, limit: 100 });
    expect(leased.map((one) => one.delivery.id)).not.toContain(queued!.id);
    expect(() => signingSecrets({ ...proposed, secretEncrypted: null, previousSecretEncrypted: null }, new Date(), keys)).toThrow(/no signing secret/);
    // Turned on by hand, past approveEndpoint: the database's check refuses it.
    const byHand = await db
      .update(webhookEndpoints)
      .set({ status: "active" })
      .where(eq(webhookEndpoints.id, proposed.id))
      .then(() => null, (error: Error) => String(error.cause ?? error));
    expect(byHand).toMatch(/webhook_endpoints_active_has_secret/);
    expect((await rowOf(proposed.id)).status).toBe("pending");
    await db.delete(webhookDeliveries).where(eq(webhookDeliveries.id, queued!.id));
  });

  it("migration 0028 drops the secret of every endpoint never approved (its proposer saw it) and keeps an approved one's", async () => {
    const migration = fs.readFileSync(path.join(process.cwd(), "drizzle", "0028_webhook-endpoint-secret-at-approval.sql"), "utf8");
    const dropSecrets = migration.split("--> statement-breakpoint").find((statement) => statement.includes("UPDATE"))!;
    const stale = "a secret made at the proposal";
    const rows = await db
      .insert(webhookEndpoints)
      .values(
        (
          [
            ["pending", null],
            ["rejected", new Date()],
            ["disabled", null],
            ["disabled", new Date()],
            ["active", new Date()],
          ] as const
        ).map(([status, decidedAt], index) => ({ url: `http://127.0.0.1:9/before-0028-${index}`, events: ["token.finished"], status, decidedAt, secretEncrypted: stale, proposedByUsername: "admin.first" })),
      )
      .returning({ id: webhookEndpoints.id });
    await db.execute(sql.raw(dropSecrets));
    const after = await db.select({ status: webhookEndpoints.status, secret: webhookEndpoints.secretEncrypted }).from(webhookEndpoints).where(inArray(webhookEndpoints.id, rows.map((row) => row.id)));
    expect(after.map((row) => [row.status, row.secret]).sort()).toEqual(
      [
        ["pending", null],
        ["rejected", null],
        ["disabled", null],
        ["disabled", stale],
        ["active", stale],
      ].sort(),
    );
    await db.delete(webhookEndpoints).where(inArray(webhookEndpoints.id, rows.map((row) => row.id)));
  });

  it("an operator's webhooks:add is a proposal too: no secret for the operator, any administrator approves it and is shown one", async () => {
    const proposed = await proposeEndpointAsOperator(db, "webhooks:add", { url: "http://127.0.0.1:9/operator", events: ["token.finished"] }, rules, new Date());
    expect(JSON.stringify(proposed)).not.toMatch(/whsec_|[sS]ecretEncrypted/);
    expect(proposed).toMatchObject({ status: "pending", proposedByUserId: null, proposedByUsername: "webhooks:add" });
    expect((await rowOf(proposed.id)).secretEncrypted).toBeNull();
    const { secret } = await approveEndpoint(db, first, proposed.id, new Date(), keys);
    expect(signingSecrets(await rowOf(proposed.id), new Date(), keys)).toEqual([secret]);
    const audit = await db.select({ action: auditEvents.action, actor: auditEvents.actorLabel }).from(auditEvents).where(eq(auditEvents.subjectId, proposed.id)).orderBy(auditEvents.id);
    expect(audit.map((row) => row.action)).toEqual(["webhook.endpoint_proposed", "webhook.endpoint_approved"]);
    expect(audit[0]!.actor).toBe("webhooks:add");
  });
});
