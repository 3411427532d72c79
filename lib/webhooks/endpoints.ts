import "server-only";
import { and, desc, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookAttempt, type WebhookDelivery, type WebhookEndpoint } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { PiiKeys } from "@/lib/pii";
import { addressPolicyFrom, type AddressPolicy } from "./address-policy";
import { enqueueTestEvent } from "./outbox";
import { SUBSCRIBABLE_EVENT_TYPES } from "./schemas";
import { urlProblemOf } from "./send";
import { encryptSecret, generateWebhookSecret } from "./signing";

/**
 * Webhook endpoints and their delivery log. An endpoint receives customer outcomes, so adding one
 * is a grant of customer data (ADR 0020): one administrator proposes it (or an operator, with
 * `npm run webhooks:add` on the server's console), a second one (not the author) approves it, and
 * only then does it receive events. Whoever knows its signing secret can sign a "successful"
 * webhook the bank's receiver believes, so the secret is made at the approval and shown to the
 * approver alone, once (ADR 0052): nothing secret exists while a proposal waits, and a rejected
 * one never had any. A rotation of it is two people again (secret-rotations.ts). Every step is
 * audited.
 */

export type Administrator = { userId: string; username: string };
export type UrlRules = { policy: AddressPolicy; requireHttps: boolean };

export const endpointInputSchema = z.object({
  url: z.string().trim().min(1, "Enter the endpoint's URL.").max(2_000),
  description: z.string().trim().max(200).default(""),
  events: z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES)).min(1, "Choose at least one event.").default(["token.finished"]),
});
export type EndpointInput = z.input<typeof endpointInputSchema>;

/** An endpoint as pages, actions and scripts see it: never its secrets, even encrypted. */
export type EndpointView = Omit<WebhookEndpoint, "secretEncrypted" | "previousSecretEncrypted">;

function viewOf({ secretEncrypted: _secret, previousSecretEncrypted: _previous, ...endpoint }: WebhookEndpoint): EndpointView {
  return endpoint;
}

function checkedUrl(url: string, rules: UrlRules): string {
  const problem = urlProblemOf(url, rules);
  if (problem) {
    throw new AppError("VALIDATION", `webhook URL ${problem}`, { fieldErrors: { url: [`The URL ${problem}.`] } });
  }
  return url;
}

/**
 * A proposal waiting for an administrator: no secret yet. `userId` is null for an operator's, so
 * any administrator may approve that one (the operator is not one of them).
 */
async function insertProposal(db: DbExecutor, input: EndpointInput, rules: UrlRules, proposedBy: { userId: string | null; username: string }, now: Date): Promise<EndpointView> {
  const checked = endpointInputSchema.parse(input);
  checkedUrl(checked.url, rules);
  const [endpoint] = await db
    .insert(webhookEndpoints)
    .values({
      url: checked.url,
      description: checked.description,
      events: checked.events,
      status: "pending",
      proposedByUserId: proposedBy.userId,
      proposedByUsername: proposedBy.username,
      proposedAt: now,
    })
    .returning();
  return viewOf(endpoint!);
}

/** The admin page's "add endpoint": a proposal a second administrator approves. No secret to anyone yet. */
export async function proposeEndpoint(db: DbExecutor, admin: Administrator, input: EndpointInput, rules: UrlRules, now: Date, requestId?: string): Promise<EndpointView> {
  return db.transaction(async (tx) => {
    const endpoint = await insertProposal(tx, input, rules, admin, now);
    await recordAuditEvent(tx, {
      action: "webhook.endpoint_proposed",
      actor: admin,
      subject: { type: "webhook_endpoint", id: endpoint.id },
      details: { url: endpoint.url, events: endpoint.events },
      requestId,
    });
    return endpoint;
  });
}

/**
 * `npm run webhooks:add`: an operator on the server's console proposes, as an administrator
 * would; an administrator approves it in the app and is shown the secret there.
 */
export async function proposeEndpointAsOperator(db: DbExecutor, operator: string, input: EndpointInput, rules: UrlRules, now: Date): Promise<EndpointView> {
  return db.transaction(async (tx) => {
    const endpoint = await insertProposal(tx, input, rules, { userId: null, username: operator }, now);
    await recordAuditEvent(tx, {
      action: "webhook.endpoint_proposed",
      actor: null,
      actorLabel: operator,
      subject: { type: "webhook_endpoint", id: endpoint.id },
      details: { url: endpoint.url, events: endpoint.events },
    });
    return endpoint;
  });
}

/**
 * Decides a waiting proposal in one conditional UPDATE (still waiting, not the proposer's), so
 * of two decisions at once one claims it and the other finds nothing waiting. `secretEncrypted`
 * is the approval's new secret, written in the same statement.
 */
async function claimPending(
  tx: DbExecutor,
  admin: Administrator,
  endpointId: string,
  decision: { status: "active"; secretEncrypted: string } | { status: "rejected" },
  now: Date,
): Promise<WebhookEndpoint> {
  const [claimed] = await tx
    .update(webhookEndpoints)
    .set({ ...decision, decidedByUserId: admin.userId, decidedByUsername: admin.username, decidedAt: now })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.status, "pending"), sql`${webhookEndpoints.proposedByUserId} is distinct from ${admin.userId}`))
    .returning();
  if (claimed) return claimed;
  const [found] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
  if (!found) throw new AppError("NOT_FOUND", `webhook endpoint ${endpointId} not found`);
  if (found.status === "pending" && found.proposedByUserId === admin.userId) {
    throw new AppError("FORBIDDEN", "separation of duties: the proposer cannot decide their own webhook endpoint", {
      userMessage: "Another administrator must approve or reject an endpoint you added.",
    });
  }
  throw new AppError("CONFLICT", `webhook endpoint ${endpointId} is no longer waiting for approval`, { userMessage: "This endpoint is no longer waiting for approval." });
}

/** The second administrator approves: the endpoint's secret is made now and returned once, to them. */
export async function approveEndpoint(
  db: DbExecutor,
  admin: Administrator,
  endpointId: string,
  now: Date,
  keys?: PiiKeys,
  requestId?: string,
): Promise<{ endpoint: EndpointView; secret: string }> {
  return db.transaction(async (tx) => {
    const secret = generateWebhookSecret();
    const endpoint = await claimPending(tx, admin, endpointId, { status: "active", secretEncrypted: encryptSecret(endpointId, "secret", secret, keys) }, now);
    await recordAuditEvent(tx, {
      action: "webhook.endpoint_approved",
      actor: admin,
      subject: { type: "webhook_endpoint", id: endpointId },
      details: { url: endpoint.url, events: endpoint.events, proposedBy: endpoint.proposedByUsername },
      requestId,
    });
    return { endpoint: viewOf(endpoint), secret };
  });
}

export async function rejectEndpoint(db: DbExecutor, admin: Administrator, endpointId: string, now: Date, requestId?: string): Promise<void> {
  await db.transaction(async (tx) => {
    const endpoint = await claimPending(tx, admin, endpointId, { status: "rejected" }, now);
    await recordAuditEvent(tx, {
      action: "webhook.endpoint_rejected",
      actor: admin,
      subject: { type: "webhook_endpoint", id: endpointId },
      details: { url: endpoint.url, proposedBy: endpoint.proposedByUsername },
      requestId,
    });
  });
}

export async function disableEndpoint(db: DbExecutor, admin: Administrator, endpointId: string, now: Date, requestId?: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ status: "disabled", disabledAt: now, disabledReason: "admin" })
      .where(and(eq(webhookEndpoints.id, endpointId), inArray(webhookEndpoints.status, ["active", "pending"])))
      .returning();
    if (!endpoint) throw new AppError("CONFLICT", `webhook endpoint ${endpointId} is not active`, { userMessage: "This endpoint is not active." });
    await recordAuditEvent(tx, { action: "webhook.endpoint_disabled", actor: admin, subject: { type: "webhook_endpoint", id: endpointId }, details: { url: endpoint.url }, requestId });
  });
}

/** Turns a disabled endpoint back on (it was approved before); its pending deliveries go again. */
export async function enableEndpoint(db: DbExecutor, admin: Administrator, endpointId: string, now: Date, requestId?: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ status: "active", disabledAt: null, disabledReason: null, failingSince: null })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.status, "disabled"), sql`${webhookEndpoints.decidedAt} is not null`))
      .returning();
    if (!endpoint) throw new AppError("CONFLICT", `webhook endpoint ${endpointId} is not disabled`, { userMessage: "This endpoint is not disabled." });
    await tx.update(webhookDeliveries).set({ nextAttemptAt: now }).where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
    await recordAuditEvent(tx, { action: "webhook.endpoint_enabled", actor: admin, subject: { type: "webhook_endpoint", id: endpointId }, details: { url: endpoint.url }, requestId });
  });
}

/**
 * A new URL for an endpoint sends customer outcomes somewhere else, so it is a grant as the
 * endpoint was: one administrator proposes it (checked as a new endpoint's URL is), deliveries go
 * on to the old URL, and a second administrator approves it. A newer proposal replaces a waiting one.
 */
export async function proposeUrlChange(db: DbExecutor, admin: Administrator, endpointId: string, url: string, rules: UrlRules, now: Date, requestId?: string): Promise<void> {
  const parsed = endpointInputSchema.shape.url.safeParse(url);
  if (!parsed.success) throw new AppError("VALIDATION", "webhook URL missing or too long", { fieldErrors: { url: [parsed.error.issues[0]!.message] } });
  const proposed = checkedUrl(parsed.data, rules);
  await db.transaction(async (tx) => {
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).for("update");
    if (!endpoint || endpoint.status === "rejected") throw new AppError("NOT_FOUND", `webhook endpoint ${endpointId} not found`);
    if (endpoint.status === "pending") {
      throw new AppError("CONFLICT", `webhook endpoint ${endpointId} is still waiting for approval`, {
        userMessage: "This endpoint is still waiting for approval: reject it and add it again with the right URL.",
      });
    }
    if (proposed === endpoint.url) throw new AppError("VALIDATION", "webhook URL unchanged", { fieldErrors: { url: ["This is the endpoint's URL already."] } });
    await tx
      .update(webhookEndpoints)
      .set({ proposedUrl: proposed, urlProposedByUserId: admin.userId, urlProposedByUsername: admin.username, urlProposedAt: now })
      .where(eq(webhookEndpoints.id, endpointId));
    await recordAuditEvent(tx, {
      action: "webhook.endpoint_url_proposed",
      actor: admin,
      subject: { type: "webhook_endpoint", id: endpointId },
      details: { from: endpoint.url, to: proposed, ...(endpoint.proposedUrl ? { replaced: endpoint.proposedUrl } : {}) },
      requestId,
    });
  });
}

/**
 * Approves or rejects the waiting URL. `seenUrl` is the proposal the administrator looked at: a
 * newer one in between is refused rather than approved unseen. Approving checks the URL again
 * (the allowed addresses may have changed) and is never the proposer's; rejecting is anyone's, the
 * proposer's included (a withdrawal).
 */
export async function decideUrlChange(
  db: DbExecutor,
  admin: Administrator,
  endpointId: string,
  decision: "approve" | "reject",
  seenUrl: string,
  rules: UrlRules,
  requestId?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).for("update");
    if (!endpoint || endpoint.status === "rejected") throw new AppError("NOT_FOUND", `webhook endpoint ${endpointId} not found`);
    if (endpoint.proposedUrl === null || endpoint.proposedUrl !== seenUrl) {
      throw new AppError("CONFLICT", `webhook endpoint ${endpointId} has no URL change ${seenUrl} waiting`, {
        userMessage: "That URL change is no longer waiting (decided, withdrawn or replaced): reload the page.",
      });
    }
    const proposal = { from: endpoint.url, to: endpoint.proposedUrl, proposedBy: endpoint.urlProposedByUsername };
    const cleared = { proposedUrl: null, urlProposedByUserId: null, urlProposedByUsername: null, urlProposedAt: null };
    if (decision === "approve") {
      if (endpoint.urlProposedByUserId === admin.userId) {
        throw new AppError("CONFLICT", "separation of duties: the proposer cannot approve their own URL change", {
          userMessage: "Another administrator must approve a URL change you proposed.",
        });
      }
      checkedUrl(endpoint.proposedUrl, rules);
      // A new destination: the old one's run of failures says nothing about it.
      await tx.update(webhookEndpoints).set({ ...cleared, url: endpoint.proposedUrl, failingSince: null }).where(eq(webhookEndpoints.id, endpointId));
    } else {
      await tx.update(webhookEndpoints).set(cleared).where(eq(webhookEndpoints.id, endpointId));
    }
    await recordAuditEvent(tx, {
      action: decision === "approve" ? "webhook.endpoint_url_changed" : "webhook.endpoint_url_change_rejected",
      actor: admin,
      subject: { type: "webhook_endpoint", id: endpointId },
      details: proposal,
      requestId,
    });
  });
}

export async function sendTestEvent(db: DbExecutor, admin: Administrator, endpointId: string, now: Date, requestId?: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    if (!endpoint) throw new AppError("NOT_FOUND", `webhook endpoint ${endpointId} not found`);
    if (endpoint.status !== "active") throw new AppError("CONFLICT", `webhook endpoint ${endpointId} is not active`, { userMessage: "Only an active endpoint can receive a test." });
    const deliveryId = await enqueueTestEvent(tx, endpointId, admin.username, now);
    await recordAuditEvent(tx, { action: "webhook.test_sent", actor: admin, subject: { type: "webhook_endpoint", id: endpointId }, details: { deliveryId }, requestId });
    return deliveryId;
  });
}

/** Sends one delivery again (delivered or failed), same webhook-id: the receiver's dedupe still holds. */
export async function resendDelivery(db: DbExecutor, admin: Administrator, deliveryId: string, now: Date, requestId?: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [delivery] = await tx
      .update(webhookDeliveries)
      .set({ status: "pending", nextAttemptAt: now, leaseOwner: null, leaseUntil: null })
      .where(and(eq(webhookDeliveries.id, deliveryId), ne(webhookDeliveries.status, "pending")))
      .returning();
    if (!delivery) throw new AppError("CONFLICT", `webhook delivery ${deliveryId} is already waiting to be sent`, { userMessage: "This delivery is already waiting to be sent." });
    await recordAuditEvent(tx, { action: "webhook.resent", actor: admin, subject: { type: "webhook_endpoint", id: delivery.endpointId }, details: { deliveryId }, requestId });
  });
}

/** Every failed delivery of an endpoint since a moment goes again (after an outage on the bank's side). */
export async function recoverFailedSince(db: DbExecutor, admin: Administrator, endpointId: string, since: Date, now: Date, requestId?: string): Promise<number> {
  return db.transaction(async (tx) => {
    const recovered = await tx
      .update(webhookDeliveries)
      .set({ status: "pending", nextAttemptAt: now, leaseOwner: null, leaseUntil: null })
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "failed"), gte(webhookDeliveries.createdAt, since)))
      .returning({ id: webhookDeliveries.id });
    await recordAuditEvent(tx, {
      action: "webhook.recovered",
      actor: admin,
      subject: { type: "webhook_endpoint", id: endpointId },
      details: { since: since.toISOString(), deliveries: recovered.length },
      requestId,
    });
    return recovered.length;
  });
}

export type EndpointSummary = EndpointView & { pending: number; failed: number };

export async function listEndpoints(db: DbExecutor): Promise<EndpointSummary[]> {
  const rows = await db.select().from(webhookEndpoints).where(ne(webhookEndpoints.status, "rejected")).orderBy(desc(webhookEndpoints.proposedAt));
  const counts = await db
    .select({
      endpointId: webhookDeliveries.endpointId,
      pending: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'pending')::int`,
      failed: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'failed')::int`,
    })
    .from(webhookDeliveries)
    .groupBy(webhookDeliveries.endpointId);
  const byId = new Map(counts.map((row) => [row.endpointId, row]));
  return rows.map((row) => ({
    ...viewOf(row),
    pending: Number(byId.get(row.id)?.pending ?? 0),
    failed: Number(byId.get(row.id)?.failed ?? 0),
  }));
}

export async function findEndpoint(db: DbExecutor, endpointId: string): Promise<EndpointSummary | null> {
  return (await listEndpoints(db)).find((endpoint) => endpoint.id === endpointId) ?? null;
}

export type DeliveryLogEntry = Omit<WebhookDelivery, "payload" | "leaseOwner"> & { attemptsLog: WebhookAttempt[] };

/** The delivery log of one endpoint: the latest deliveries, each with its attempts. */
export async function deliveryLog(db: DbExecutor, endpointId: string, limit = 50): Promise<DeliveryLogEntry[]> {
  const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(desc(webhookDeliveries.createdAt)).limit(limit);
  if (deliveries.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveries.map((delivery) => delivery.id)))
    .orderBy(webhookAttempts.startedAt);
  return deliveries.map(({ payload: _payload, leaseOwner: _owner, ...delivery }) => ({
    ...delivery,
    attemptsLog: attempts.filter((attempt) => attempt.deliveryId === delivery.id),
  }));
}

/** For the Operations page: endpoints the worker disabled, and deliveries that gave up. */
export async function webhookHealth(db: DbExecutor): Promise<{ disabled: Array<{ id: string; url: string; reason: string | null; at: Date | null }>; failedDeliveries: number; pendingDeliveries: number }> {
  const disabled = await db
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, reason: webhookEndpoints.disabledReason, at: webhookEndpoints.disabledAt })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.status, "disabled"));
  const [counts] = await db
    .select({
      failed: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'failed')::int`,
      pending: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'pending')::int`,
    })
    .from(webhookDeliveries);
  return { disabled, failedDeliveries: Number(counts?.failed ?? 0), pendingDeliveries: Number(counts?.pending ?? 0) };
}

/** The URL rules of this deployment: the address policy, and https:// only in production. */
export function urlRulesFrom(settings: { APP_ENV: string; WEBHOOK_ALLOWED_CIDRS?: string[] | undefined }): UrlRules {
  return { policy: addressPolicyFrom(settings), requireHttps: settings.APP_ENV === "production" };
}
