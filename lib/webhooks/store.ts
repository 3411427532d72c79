import "server-only";
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { tokenRequests, webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookDelivery, type WebhookEndpoint } from "@/lib/db/schema";
import { sharedReference } from "./reference";
import { FAILING_ENDPOINT_DISABLED_AFTER_MS, nextAttemptAt } from "./schedule";
import type { SendResult } from "./send";

/**
 * The worker's reads and writes. A delivery is due when pending, its time has come, its endpoint
 * is active and no live lease holds it. Leasing takes row locks with SKIP LOCKED in one short
 * transaction (as the watcher leases tokens), so two instances split the due deliveries instead of
 * sending one twice; a lease left by a crashed instance runs out and the delivery goes again,
 * with the same webhook-id. Results are written only while the lease is still this worker's.
 */

export type LeasedDelivery = { delivery: WebhookDelivery; endpoint: WebhookEndpoint };

export async function leaseDueDeliveries(
  db: DbExecutor,
  { owner, now, leaseMs, limit }: { owner: string; now: Date; leaseMs: number; limit: number },
): Promise<LeasedDelivery[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
          eq(webhookEndpoints.status, "active"),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit)
      .for("update", { of: webhookDeliveries, skipLocked: true });
    if (due.length === 0) return [];
    const leased = await tx
      .update(webhookDeliveries)
      .set({ leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs) })
      .where(inArray(webhookDeliveries.id, due.map((row) => row.id)))
      .returning();
    const endpoints = await tx.select().from(webhookEndpoints).where(inArray(webhookEndpoints.id, [...new Set(leased.map((row) => row.endpointId))]));
    const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    return leased.map((delivery) => ({ delivery, endpoint: byId.get(delivery.endpointId)! }));
  });
}

/** The body as sent: the stored event, with the token's reference as the API shows it (reference.ts), read when sending so an erasure holds. */
export async function bodyOf(db: DbExecutor, delivery: WebhookDelivery): Promise<string> {
  if (delivery.eventType !== "token.finished" || !delivery.tokenRequestId) return JSON.stringify(delivery.payload);
  const [token] = await db
    .select({ referenceMasked: tokenRequests.referenceMasked, contactErasedAt: tokenRequests.contactErasedAt, contactErasedUnder: tokenRequests.contactErasedUnder })
    .from(tokenRequests)
    .where(eq(tokenRequests.id, delivery.tokenRequestId));
  const reference = token ? sharedReference(token) : null;
  const payload = delivery.payload as { type: string; timestamp: string; data: Record<string, unknown> };
  const { id, ...rest } = payload.data;
  return JSON.stringify({ type: payload.type, timestamp: payload.timestamp, data: { id, reference, ...rest } });
}

export type AttemptOutcome = "delivered" | "retry" | "failed" | "lease_lost";

/** Records one attempt and decides what follows: done, another try, given up, endpoint disabled. */
export async function recordAttempt(
  db: DbExecutor,
  { leased, owner, result, startedAt, now, random }: { leased: LeasedDelivery; owner: string; result: SendResult; startedAt: Date; now: Date; random?: () => number },
): Promise<{ outcome: AttemptOutcome; endpointDisabled: "gone" | "failing" | null }> {
  return db.transaction(async (tx) => {
    const { delivery } = leased;
    const [current] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.leaseOwner, owner)))
      .for("update");
    if (!current) return { outcome: "lease_lost", endpointDisabled: null };
    const attemptNumber = current.attempts + 1;
    const statusCode = result.kind === "answered" ? result.statusCode : null;
    await tx.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      attemptNumber,
      startedAt,
      latencyMs: result.latencyMs,
      statusCode,
      error: result.kind === "answered" ? null : result.error,
      responseExcerpt: result.kind === "answered" ? result.excerpt : null,
    });
    const common = { attempts: attemptNumber, lastAttemptAt: startedAt, lastStatusCode: statusCode, leaseOwner: null, leaseUntil: null };
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      await tx.update(webhookDeliveries).set({ ...common, status: "delivered", deliveredAt: now, lastError: null }).where(eq(webhookDeliveries.id, delivery.id));
      await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, delivery.endpointId));
      return { outcome: "delivered", endpointDisabled: null };
    }
    const lastError = result.kind === "answered" ? `HTTP ${result.statusCode}` : result.error;
    // 410 Gone: the receiver says the endpoint no longer exists (Standard Webhooks): stop at once.
    const isGone = statusCode === 410;
    const next = isGone ? null : nextAttemptAt(attemptNumber, now, random);
    await tx
      .update(webhookDeliveries)
      .set({ ...common, lastError, status: next ? "pending" : "failed", nextAttemptAt: next ?? current.nextAttemptAt })
      .where(eq(webhookDeliveries.id, delivery.id));
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${startedAt.toISOString()}::timestamptz)` })
      .where(eq(webhookEndpoints.id, delivery.endpointId))
      .returning({ failingSince: webhookEndpoints.failingSince, status: webhookEndpoints.status });
    const isFailingTooLong = endpoint?.failingSince ? now.getTime() - endpoint.failingSince.getTime() >= FAILING_ENDPOINT_DISABLED_AFTER_MS : false;
    const disable = isGone ? "gone" : isFailingTooLong ? "failing" : null;
    if (disable && endpoint?.status === "active") {
      await tx
        .update(webhookEndpoints)
        .set({ status: "disabled", disabledAt: now, disabledReason: disable })
        .where(and(eq(webhookEndpoints.id, delivery.endpointId), eq(webhookEndpoints.status, "active")));
    }
    return { outcome: next ? "retry" : "failed", endpointDisabled: disable && endpoint?.status === "active" ? disable : null };
  });
}

/** Hands back this worker's leases at shutdown, so another instance sends them at once. */
export async function releaseDeliveryLeases(db: DbExecutor, owner: string): Promise<void> {
  await db.update(webhookDeliveries).set({ leaseOwner: null, leaseUntil: null }).where(eq(webhookDeliveries.leaseOwner, owner));
}


/** Every lease: on the embedded database, whoever holds one was a previous run of this very app. */
export async function clearAllDeliveryLeases(db: DbExecutor): Promise<void> {
  await db.update(webhookDeliveries).set({ leaseOwner: null, leaseUntil: null }).where(isNotNull(webhookDeliveries.leaseOwner));
}
