import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditEvents, webhookEndpoints, webhookSecretRotations } from "@/lib/db/schema";
import type { Database } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { approveEndpoint, disableEndpoint, enableEndpoint, proposeEndpoint, rejectEndpoint } from "./endpoints";
import { approveSecretRotation, decideAgainstSecretRotation, proposeSecretRotation, waitingRotations } from "./secret-rotations";
import { signingSecrets } from "./signing";

/**
 * A new signing secret is two administrators (ADR 0052), through the functions the admin page's
 * actions call: one proposes, nothing changes; the proposer cannot approve; a second approves and
 * alone gets the new secret, once; a rejected or withdrawn rotation changes nothing; one waits per
 * endpoint, even under a burst; two approvals at once rotate once; every step audited.
 */

const keys = scratchPiiKeys();
const rules = { policy: { allowedCidrs: ["127.0.0.1/32"] }, requireHttps: false };
const first = { userId: "admin-1", username: "admin.first" };
const second = { userId: "admin-2", username: "admin.second" };
const third = { userId: "admin-3", username: "admin.third" };

forEachDatabase("webhook secret rotations", (driver) => {
  let scratch: ScratchDatabase;
  let db: Database;
  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "webhook-secret-rotations" });
    db = scratch.opened.db;
  }, 120_000);
  afterAll(async () => {
    await scratch?.destroy();
  });

  const codeOf = async (attempt: Promise<unknown>) => {
    try {
      await attempt;
      return "done";
    } catch (error) {
      if (error instanceof AppError) return error.code;
      throw error;
    }
  };

  /** An active endpoint (proposed by `first`, approved by `second`) and its secret. */
  async function activeEndpoint(path: string) {
    const proposed = await proposeEndpoint(db, first, { url: `http://127.0.0.1:9/${path}` }, rules, new Date());
    const { secret } = await approveEndpoint(db, second, proposed.id, new Date(), keys);
    return { endpointId: proposed.id, secret };
  }

  async function secretsOf(endpointId: string, at = new Date()) {
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    return signingSecrets(row!, at, keys);
  }

  async function auditOf(endpointId: string) {
    const rows = await db
      .select({ action: auditEvents.action, actor: auditEvents.actorLabel, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, endpointId))
      .orderBy(auditEvents.id);
    return rows.filter((row) => row.action.startsWith("webhook.secret"));
  }

  it("one administrator alone never gets a new secret: the proposal changes nothing, the proposer cannot approve it, a second administrator does and alone is shown it", async () => {
    const { endpointId, secret: original } = await activeEndpoint("rotate-two");
    const now = new Date();
    const rotation = await proposeSecretRotation(db, first, endpointId, 6, now);
    expect(await secretsOf(endpointId)).toEqual([original]);
    expect(await codeOf(approveSecretRotation(db, first, endpointId, rotation.id, now, keys))).toBe("FORBIDDEN");
    expect(await secretsOf(endpointId)).toEqual([original]);

    const { secret, previousValidUntil } = await approveSecretRotation(db, second, endpointId, rotation.id, now, keys);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(original);
    expect(previousValidUntil.getTime()).toBe(now.getTime() + 6 * 3_600_000);
    expect(await secretsOf(endpointId, now)).toEqual([secret, original]);
    expect(await secretsOf(endpointId, new Date(now.getTime() + 7 * 3_600_000))).toEqual([secret]);
    // Approved once: a second approval, anyone's, finds nothing waiting.
    expect(await codeOf(approveSecretRotation(db, third, endpointId, rotation.id, now, keys))).toBe("CONFLICT");

    expect(await auditOf(endpointId)).toEqual([
      { action: "webhook.secret_rotation_proposed", actor: "admin.first", details: expect.objectContaining({ rotationId: rotation.id, overlapHours: 6 }) },
      { action: "webhook.secret_rotated", actor: "admin.second", details: expect.objectContaining({ rotationId: rotation.id, proposedBy: "admin.first", approvedBy: "admin.second" }) },
    ]);
    // The secret is in no audit row.
    expect(JSON.stringify(await auditOf(endpointId))).not.toContain(secret);
  });

  it("one rotation waits per endpoint: a second proposal is refused, and of a burst of five one stands", async () => {
    const { endpointId } = await activeEndpoint("rotate-one");
    const rotation = await proposeSecretRotation(db, first, endpointId, 24, new Date());
    expect(await codeOf(proposeSecretRotation(db, second, endpointId, 1, new Date()))).toBe("CONFLICT");
    await decideAgainstSecretRotation(db, first, endpointId, rotation.id, "cancelled", new Date());

    const burst = await Promise.all([first, second, third, first, second].map((admin, index) => codeOf(proposeSecretRotation(db, admin, endpointId, index, new Date()))));
    expect(burst.filter((code) => code === "done")).toHaveLength(1);
    expect(burst.filter((code) => code === "CONFLICT")).toHaveLength(4);
    expect((await waitingRotations(db, [endpointId])).size).toBe(1);
  });

  it("two approvals at the same moment rotate once", async () => {
    const { endpointId, secret: original } = await activeEndpoint("rotate-race");
    const rotation = await proposeSecretRotation(db, first, endpointId, 24, new Date());
    const now = new Date();
    const results = await Promise.allSettled([approveSecretRotation(db, second, endpointId, rotation.id, now, keys), approveSecretRotation(db, third, endpointId, rotation.id, now, keys)]);
    const made = results.filter((result) => result.status === "fulfilled");
    expect(made).toHaveLength(1);
    expect((results.find((result) => result.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT" });
    // Rotated once: the old secret beside the one new one, not a secret made and overwritten.
    expect(await secretsOf(endpointId, now)).toEqual([(made[0] as PromiseFulfilledResult<{ secret: string }>).value.secret, original]);
    expect((await auditOf(endpointId)).filter((row) => row.action === "webhook.secret_rotated")).toHaveLength(1);
  });

  it("a rejected or withdrawn rotation changes nothing; only another administrator rejects, only the proposer withdraws", async () => {
    const { endpointId, secret: original } = await activeEndpoint("rotate-reject");
    const rejected = await proposeSecretRotation(db, first, endpointId, 24, new Date());
    expect(await codeOf(decideAgainstSecretRotation(db, first, endpointId, rejected.id, "rejected", new Date()))).toBe("CONFLICT");
    expect(await codeOf(decideAgainstSecretRotation(db, second, endpointId, rejected.id, "cancelled", new Date()))).toBe("CONFLICT");
    await decideAgainstSecretRotation(db, second, endpointId, rejected.id, "rejected", new Date());
    expect(await codeOf(approveSecretRotation(db, third, endpointId, rejected.id, new Date(), keys))).toBe("CONFLICT");

    const withdrawn = await proposeSecretRotation(db, second, endpointId, 24, new Date());
    await decideAgainstSecretRotation(db, second, endpointId, withdrawn.id, "cancelled", new Date());
    expect(await codeOf(approveSecretRotation(db, first, endpointId, withdrawn.id, new Date(), keys))).toBe("CONFLICT");

    expect(await secretsOf(endpointId)).toEqual([original]);
    expect((await auditOf(endpointId)).map((row) => [row.action, row.actor])).toEqual([
      ["webhook.secret_rotation_proposed", "admin.first"],
      ["webhook.secret_rotation_rejected", "admin.second"],
      ["webhook.secret_rotation_proposed", "admin.second"],
      ["webhook.secret_rotation_cancelled", "admin.second"],
    ]);
  });

  it("a disabled endpoint's rotation is neither proposed nor approved; a rejected endpoint is not found", async () => {
    const { endpointId, secret: original } = await activeEndpoint("rotate-disabled");
    const rotation = await proposeSecretRotation(db, first, endpointId, 24, new Date());
    await disableEndpoint(db, first, endpointId, new Date());
    expect(await codeOf(approveSecretRotation(db, second, endpointId, rotation.id, new Date(), keys))).toBe("CONFLICT");
    expect(await codeOf(proposeSecretRotation(db, third, endpointId, 24, new Date()))).toBe("CONFLICT");
    expect(await secretsOf(endpointId)).toEqual([original]);
    // The refused approval left the rotation waiting, for a decision once the endpoint is back.
    const [row] = await db.select({ status: webhookSecretRotations.status }).from(webhookSecretRotations).where(eq(webhookSecretRotations.id, rotation.id));
    expect(row!.status).toBe("pending");
    await enableEndpoint(db, first, endpointId, new Date());
    await decideAgainstSecretRotation(db, second, endpointId, rotation.id, "rejected", new Date());

    const refused = await proposeEndpoint(db, first, { url: "http://127.0.0.1:9/rotate-refused" }, rules, new Date());
    expect(await codeOf(proposeSecretRotation(db, first, refused.id, 24, new Date()))).toBe("CONFLICT");
    await rejectEndpoint(db, second, refused.id, new Date());
    expect(await codeOf(proposeSecretRotation(db, first, refused.id, 24, new Date()))).toBe("NOT_FOUND");
  });

  it("a rotation is approved only on its own endpoint: another endpoint's id rotates nothing", async () => {
    const a = await activeEndpoint("rotate-a");
    const b = await activeEndpoint("rotate-b");
    const rotationOfA = await proposeSecretRotation(db, first, a.endpointId, 24, new Date());
    expect(await codeOf(approveSecretRotation(db, second, b.endpointId, rotationOfA.id, new Date(), keys))).toBe("CONFLICT");
    expect(await codeOf(decideAgainstSecretRotation(db, second, b.endpointId, rotationOfA.id, "rejected", new Date()))).toBe("CONFLICT");
    expect(await secretsOf(a.endpointId)).toEqual([a.secret]);
    expect(await secretsOf(b.endpointId)).toEqual([b.secret]);
    expect((await waitingRotations(db, [a.endpointId])).get(a.endpointId)?.id).toBe(rotationOfA.id);
  });
});
