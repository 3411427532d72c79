import "server-only";
import { and, desc, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import { webhookEndpoints, webhookSecretRotations, type WebhookSecretRotation } from "@/lib/db/schema";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors";
import type { PiiKeys } from "@/lib/pii";
import type { Administrator } from "./endpoints";
import { currentSecretOf, encryptSecret, generateWebhookSecret } from "./signing";

/**
 * Rotating an endpoint's signing secret, two people as rolling an API key is (lib/api/keys.ts,
 * ADR 0052): whoever holds the secret can sign a "successful" webhook the bank's receiver believes,
 * so one administrator proposes the rotation (with the hours the old secret keeps signing) and a
 * second one, never the proposer, approves it and alone is shown the new secret, once. The
 * proposer may cancel it, another administrator reject it; neither changes the endpoint. One
 * rotation waits per endpoint: a second proposal is refused, not swapped in, so the approver
 * approves what they saw. Every step is audited.
 */

/** How long the old secret still signs after a rotation, unless said otherwise. */
export const DEFAULT_ROTATION_OVERLAP_HOURS = 24;
export const overlapHoursSchema = z.coerce.number().int().min(0).max(24 * 14);

const notWaiting = () =>
  new AppError("CONFLICT", "no rotation waiting", { userMessage: "This rotation is no longer waiting (decided or withdrawn): reload the page." });

/** The endpoint's row, locked: a rotation and the endpoint's other changes take turns. */
async function lockedEndpoint(tx: DbExecutor, endpointId: string) {
  const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).for("update");
  if (!endpoint || endpoint.status === "rejected") throw new AppError("NOT_FOUND", `webhook endpoint ${endpointId} not found`);
  return endpoint;
}

/** Only an endpoint that was approved and still is has a secret worth rotating: a disabled one sends nothing. */
function refuseUnlessActive(endpoint: { id: string; status: string }) {
  if (endpoint.status !== "active") {
    throw new AppError("CONFLICT", `webhook endpoint ${endpoint.id} is ${endpoint.status}: secret not rotated`, {
      userMessage: "Only an active endpoint's secret is rotated: enable it (or have it approved) first.",
    });
  }
}

export async function proposeSecretRotation(db: DbExecutor, admin: Administrator, endpointId: string, overlapHours: number, now: Date, requestId?: string): Promise<WebhookSecretRotation> {
  const hours = overlapHoursSchema.parse(overlapHours);
  try {
    return await db.transaction(async (tx) => {
      const endpoint = await lockedEndpoint(tx, endpointId);
      refuseUnlessActive(endpoint);
      const [waiting] = await tx
        .select({ id: webhookSecretRotations.id })
        .from(webhookSecretRotations)
        .where(and(eq(webhookSecretRotations.endpointId, endpointId), eq(webhookSecretRotations.status, "pending")));
      if (waiting) throw alreadyWaiting(endpointId);
      const [rotation] = await tx
        .insert(webhookSecretRotations)
        .values({ endpointId, overlapHours: hours, proposedByUserId: admin.userId, proposedByUsername: admin.username, proposedAt: now })
        .returning();
      await recordAuditEvent(tx, {
        action: "webhook.secret_rotation_proposed",
        actor: admin,
        subject: { type: "webhook_endpoint", id: endpointId },
        details: { url: endpoint.url, rotationId: rotation!.id, overlapHours: hours },
        requestId,
      });
      return rotation!;
    });
  } catch (error) {
    // The endpoint's lock orders proposals; the one-waiting index is the floor under it.
    if (isUniqueViolation(error)) throw alreadyWaiting(endpointId);
    throw error;
  }
}

function alreadyWaiting(endpointId: string) {
  return new AppError("CONFLICT", `webhook endpoint ${endpointId} already has a rotation waiting`, {
    userMessage: "A rotation of this secret already waits for a second administrator.",
  });
}

/**
 * The second administrator approves: the new secret is made now and returned once, to them. One
 * conditional UPDATE (still waiting, of this endpoint, not the proposer's) so two racing approvals
 * rotate once; the endpoint must still be active, as it was when proposed.
 */
export async function approveSecretRotation(
  db: DbExecutor,
  approver: Administrator,
  endpointId: string,
  rotationId: string,
  now: Date,
  keys?: PiiKeys,
  requestId?: string,
): Promise<{ secret: string; previousValidUntil: Date }> {
  return db.transaction(async (tx) => {
    const endpoint = await lockedEndpoint(tx, endpointId);
    const [claimed] = await tx
      .update(webhookSecretRotations)
      .set({ status: "approved", decidedByUserId: approver.userId, decidedByUsername: approver.username, decidedAt: now })
      .where(
        and(
          eq(webhookSecretRotations.id, rotationId),
          eq(webhookSecretRotations.endpointId, endpointId),
          eq(webhookSecretRotations.status, "pending"),
          ne(webhookSecretRotations.proposedByUserId, approver.userId),
        ),
      )
      .returning();
    if (!claimed) throw await whyNotDecided(tx, approver, endpointId, rotationId, "approve");
    // Refused after the claim, in the same transaction: the claim rolls back with it.
    refuseUnlessActive(endpoint);
    const current = currentSecretOf(endpoint, keys);
    const secret = generateWebhookSecret();
    const previousValidUntil = new Date(now.getTime() + claimed.overlapHours * 3_600_000);
    await tx
      .update(webhookEndpoints)
      .set({
        secretEncrypted: encryptSecret(endpointId, "secret", secret, keys),
        previousSecretEncrypted: encryptSecret(endpointId, "previous_secret", current, keys),
        previousSecretUntil: previousValidUntil,
      })
      .where(eq(webhookEndpoints.id, endpointId));
    await recordAuditEvent(tx, {
      action: "webhook.secret_rotated",
      actor: approver,
      subject: { type: "webhook_endpoint", id: endpointId },
      details: { url: endpoint.url, rotationId, proposedBy: claimed.proposedByUsername, approvedBy: approver.username, previousValidUntil: previousValidUntil.toISOString() },
      requestId,
    });
    return { secret, previousValidUntil };
  });
}

/** Reject (another administrator) or cancel (the proposer): the rotation ends, the secret stays. */
export async function decideAgainstSecretRotation(
  db: DbExecutor,
  admin: Administrator,
  endpointId: string,
  rotationId: string,
  decision: "rejected" | "cancelled",
  now: Date,
  requestId?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const byProposer = eq(webhookSecretRotations.proposedByUserId, admin.userId);
    const [row] = await tx
      .update(webhookSecretRotations)
      .set({ status: decision, decidedByUserId: admin.userId, decidedByUsername: admin.username, decidedAt: now })
      .where(
        and(
          eq(webhookSecretRotations.id, rotationId),
          eq(webhookSecretRotations.endpointId, endpointId),
          eq(webhookSecretRotations.status, "pending"),
          decision === "cancelled" ? byProposer : ne(webhookSecretRotations.proposedByUserId, admin.userId),
        ),
      )
      .returning();
    if (!row) throw await whyNotDecided(tx, admin, endpointId, rotationId, decision === "cancelled" ? "cancel" : "reject");
    await recordAuditEvent(tx, {
      action: decision === "cancelled" ? "webhook.secret_rotation_cancelled" : "webhook.secret_rotation_rejected",
      actor: admin,
      subject: { type: "webhook_endpoint", id: endpointId },
      details: { rotationId, proposedBy: row.proposedByUsername },
      requestId,
    });
  });
}

/** Why a decision claimed nothing, in words for the one who tried. */
async function whyNotDecided(tx: DbExecutor, admin: Administrator, endpointId: string, rotationId: string, attempt: "approve" | "reject" | "cancel"): Promise<AppError> {
  const [rotation] = await tx
    .select()
    .from(webhookSecretRotations)
    .where(and(eq(webhookSecretRotations.id, rotationId), eq(webhookSecretRotations.endpointId, endpointId)));
  // Another endpoint's rotation reads as none at all.
  if (!rotation || rotation.status !== "pending") return notWaiting();
  const isOwn = rotation.proposedByUserId === admin.userId;
  if (attempt === "approve" && isOwn) {
    return new AppError("FORBIDDEN", "separation of duties: the proposer cannot approve their own rotation", {
      userMessage: "A second administrator must approve a rotation you proposed.",
    });
  }
  if (attempt === "reject" && isOwn) return new AppError("CONFLICT", "the proposer cancels, not rejects", { userMessage: "Withdraw your own rotation instead." });
  if (attempt === "cancel" && !isOwn) return new AppError("CONFLICT", "only the proposer cancels", { userMessage: "Only the administrator who proposed it can withdraw it: reject it instead." });
  return notWaiting();
}

export type WaitingRotation = { id: string; overlapHours: number; proposedByUserId: string; proposedByUsername: string; proposedAt: Date };

/** The rotation waiting on each of these endpoints, if any. */
export async function waitingRotations(db: DbExecutor, endpointIds: readonly string[]): Promise<Map<string, WaitingRotation>> {
  if (endpointIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(webhookSecretRotations)
    .where(and(inArray(webhookSecretRotations.endpointId, [...endpointIds]), eq(webhookSecretRotations.status, "pending")))
    .orderBy(desc(webhookSecretRotations.proposedAt));
  return new Map(
    rows.map((row) => [row.endpointId, { id: row.id, overlapHours: row.overlapHours, proposedByUserId: row.proposedByUserId, proposedByUsername: row.proposedByUsername, proposedAt: row.proposedAt }]),
  );
}
