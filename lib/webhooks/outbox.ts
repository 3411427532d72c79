import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { branches, tokenRequests, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { sharedFreeText } from "./reference";
import type { TokenFinishedWebhook, WebhookTestWebhook } from "./schemas";

/**
 * The transactional outbox. `enqueueTokenFinished` is called with the transaction that closes a
 * token, so the event exists exactly when the token's final state does: a rollback takes both
 * back, a commit keeps both, and no crash in between can lose one. One delivery row per active
 * endpoint subscribed to the event; a unique index makes a second call for the same token a no-op.
 * The worker (worker.ts) sends them later.
 */

/** The event's body as stored: the reference is left out and added, masked, when sending (store.ts `bodyOf`), so an erasure since holds. */
type StoredTokenFinished = Omit<TokenFinishedWebhook, "data"> & { data: Omit<TokenFinishedWebhook["data"], "reference"> };

export async function enqueueTokenFinished(tx: DbExecutor, tokenRequestId: string, now: Date): Promise<number> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.status, "active"), sql`${webhookEndpoints.events} ? 'token.finished'`));
  if (endpoints.length === 0) return 0;
  const [token] = await tx
    .select({
      id: tokenRequests.id,
      kind: tokenRequests.kind,
      branch: branches.code,
      state: tokenRequests.liveState,
      finishedAt: tokenRequests.finishedAt,
      issuedAt: tokenRequests.issuedAt,
      expiresAt: tokenRequests.expiresAt,
      resultStatus: tokenRequests.resultStatus,
      transactionNumber: tokenRequests.transactionNumber,
      resultError: tokenRequests.resultError,
    })
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .where(eq(tokenRequests.id, tokenRequestId));
  if (!token || !token.finishedAt || !token.state) return 0;
  const finishedAt = token.finishedAt;
  const payload: StoredTokenFinished = {
    type: "token.finished",
    timestamp: finishedAt.toISOString(),
    data: {
      id: token.id,
      kind: token.kind,
      branch: token.branch,
      state: token.state as TokenFinishedWebhook["data"]["state"],
      result:
        token.resultStatus && token.transactionNumber
          ? { status: token.resultStatus, transaction_number: token.transactionNumber, error: sharedFreeText(token.resultError ?? null) }
          : null,
      issued_at: token.issuedAt?.toISOString() ?? null,
      expires_at: token.expiresAt?.toISOString() ?? null,
      finished_at: finishedAt.toISOString(),
    },
  };
  const inserted = await tx
    .insert(webhookDeliveries)
    .values(
      endpoints.map((endpoint) => ({
        endpointId: endpoint.id,
        eventType: "token.finished",
        tokenRequestId,
        payload,
        occurredAt: finishedAt,
        nextAttemptAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.id });
  return inserted.length;
}

/** A `webhook.test` for one endpoint, on an administrator's request. */
export async function enqueueTestEvent(db: DbExecutor, endpointId: string, requestedBy: string, now: Date): Promise<string> {
  const payload: WebhookTestWebhook = { type: "webhook.test", timestamp: now.toISOString(), data: { endpoint_id: endpointId, requested_by: requestedBy } };
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ endpointId, eventType: "webhook.test", payload, occurredAt: now, nextAttemptAt: now })
    .returning({ id: webhookDeliveries.id });
  return row!.id;
}
