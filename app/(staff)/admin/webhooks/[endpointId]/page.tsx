import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { EndpointControls, RecoverForm, ResendButton, SecretRotation } from "@/components/webhooks/webhook-controls";
import { deliveryStatusBadges, disabledReasonWords, endpointStatusBadges } from "@/components/webhooks/words";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { requirePermission } from "@/lib/auth/pages";
import { formatDateTime } from "@/lib/bank-time";
import { getDb } from "@/lib/db/client";
import { deliveryLog, findEndpoint } from "@/lib/webhooks/endpoints";
import { waitingRotations } from "@/lib/webhooks/secret-rotations";
import { webhookIdOf } from "@/lib/webhooks/signing";
import {
  approveSecretRotationAction,
  cancelSecretRotationAction,
  decideWebhookUrlAction,
  proposeSecretRotationAction,
  proposeWebhookUrlAction,
  recoverWebhookDeliveriesAction,
  rejectSecretRotationAction,
  resendWebhookDeliveryAction,
  sendWebhookTestAction,
  setWebhookEndpointEnabledAction,
} from "../actions";
import { UrlChange } from "./url-change";

export const metadata: Metadata = { title: "Webhook endpoint" };
export const dynamic = "force-dynamic";

/**
 * One endpoint: its controls, a URL change and a secret rotation, each waiting for a second
 * administrator, and its delivery log (latest 50 deliveries, every attempt).
 */
export default async function WebhookEndpointPage({ params }: { params: Promise<{ endpointId: string }> }) {
  const staff = await requirePermission("staff.manage");
  const { endpointId } = await params;
  if (!z.uuid().safeParse(endpointId).success) notFound();
  const db = await getDb();
  const endpoint = await findEndpoint(db, endpointId);
  if (!endpoint) notFound();
  const log = await deliveryLog(db, endpointId);
  const rotation = (await waitingRotations(db, [endpointId])).get(endpointId) ?? null;
  const badge = endpointStatusBadges[endpoint.status];
  return (
    <>
      <p className="mb-2">
        <Link href="/admin/webhooks" className="underline">
          ← Webhooks
        </Link>
      </p>
      {/* The title is a URL, one long word: on a phone it wraps where it must instead of widening the page. */}
      <div className="[overflow-wrap:anywhere]">
        <PageHeader title={endpoint.url} description={endpoint.description || `Events: ${endpoint.events.join(", ")}`} />
      </div>
      <p className="mb-4 flex flex-wrap items-center gap-3">
        <Badge tone={badge.tone}>{badge.label}</Badge>
        {endpoint.disabledReason ? <span className="text-ink-muted">{disabledReasonWords[endpoint.disabledReason] ?? endpoint.disabledReason}</span> : null}
        {endpoint.failingSince ? <span className="text-warning-700">Failing since {formatDateTime(endpoint.failingSince)}</span> : null}
        {endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date() ? (
          <span className="text-ink-muted">Old secret signs too until {formatDateTime(endpoint.previousSecretUntil)}</span>
        ) : null}
      </p>
      <section aria-label="Endpoint controls" className="mb-8">
        <EndpointControls
          endpointId={endpoint.id}
          status={endpoint.status}
          testAction={sendWebhookTestAction}
          setEnabledAction={setWebhookEndpointEnabledAction}
        />
      </section>
      {endpoint.status === "pending" ? (
        <p className="mb-8 max-w-2xl text-ink-muted" data-testid="secret-at-approval">
          No signing secret yet: it is made when {endpoint.proposedByUserId === staff.userId ? "another" : "an"} administrator approves this endpoint on the Webhooks list, and shown to them there, once.
        </p>
      ) : (
        <div className="mb-8">
          <SecretRotation
            endpointId={endpoint.id}
            isActive={endpoint.status === "active"}
            waiting={
              rotation
                ? {
                    id: rotation.id,
                    overlapHours: rotation.overlapHours,
                    proposedBy: rotation.proposedByUsername,
                    proposedAt: formatDateTime(rotation.proposedAt),
                    isOwn: rotation.proposedByUserId === staff.userId,
                  }
                : null
            }
            proposeAction={proposeSecretRotationAction}
            approveAction={approveSecretRotationAction}
            rejectAction={rejectSecretRotationAction}
            cancelAction={cancelSecretRotationAction}
          />
        </div>
      )}
      {endpoint.status === "pending" ? null : (
        <UrlChange
          endpointId={endpoint.id}
          proposal={
            endpoint.proposedUrl
              ? {
                  url: endpoint.proposedUrl,
                  proposedBy: endpoint.urlProposedByUsername ?? "",
                  proposedAt: endpoint.urlProposedAt ? formatDateTime(endpoint.urlProposedAt) : "",
                  isOwn: endpoint.urlProposedByUserId === staff.userId,
                }
              : null
          }
          proposeAction={proposeWebhookUrlAction}
          decideAction={decideWebhookUrlAction}
        />
      )}
      <h2 className="mb-2 text-xl font-semibold">Delivery log</h2>
      <p className="mb-4 text-ink-muted">
        Each delivery keeps one webhook-id across its attempts; failed ones are tried again for about three days. {endpoint.pending} waiting, {endpoint.failed} failed.
      </p>
      <div className="mb-4">
        <RecoverForm endpointId={endpoint.id} recoverAction={recoverWebhookDeliveriesAction} />
      </div>
      {log.length === 0 ? (
        <EmptyState title="Nothing sent yet">Deliveries appear here as events happen.</EmptyState>
      ) : (
        <TableFrame>
          <Table data-testid="delivery-log">
            <TableCaption className="sr-only">Deliveries to this endpoint, latest first</TableCaption>
            <TableHead>
              <TableRow>
                <TableHeaderCell>Event</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Attempts</TableHeaderCell>
                <TableHeaderCell>
                  <span className="sr-only">Actions</span>
                </TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {log.map((delivery) => {
                const deliveryBadge = deliveryStatusBadges[delivery.status];
                return (
                  <TableRow key={delivery.id} data-delivery={delivery.eventType}>
                    <TableCell>
                      <div className="font-semibold">{delivery.eventType}</div>
                      <div className="text-sm text-ink-muted">{formatDateTime(delivery.occurredAt, { seconds: true })}</div>
                      <div className="font-mono text-xs text-ink-muted">{webhookIdOf(delivery.id)}</div>
                    </TableCell>
                    <TableCell>
                      <Badge tone={deliveryBadge.tone}>{deliveryBadge.label}</Badge>
                      {delivery.status === "pending" && delivery.attempts > 0 ? (
                        <div className="text-sm text-ink-muted">next try {formatDateTime(delivery.nextAttemptAt, { seconds: true })}</div>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      {delivery.attemptsLog.length === 0 ? (
                        <span className="text-ink-muted">none yet</span>
                      ) : (
                        <ol className="flex flex-col gap-1 text-sm">
                          {delivery.attemptsLog.map((attempt) => (
                            <li key={attempt.id}>
                              #{attempt.attemptNumber} {formatDateTime(attempt.startedAt, { seconds: true })} —{" "}
                              <span className="font-semibold">{attempt.statusCode ? `HTTP ${attempt.statusCode}` : "no answer"}</span> in {attempt.latencyMs} ms
                              {attempt.error ? <span className="text-danger-700"> · {attempt.error}</span> : null}
                              {attempt.responseExcerpt ? (
                                <div className="max-w-md truncate font-mono text-xs text-ink-muted" title={attempt.responseExcerpt}>
                                  {attempt.responseExcerpt}
                                </div>
                              ) : null}
                            </li>
                          ))}
                        </ol>
                      )}
                    </TableCell>
                    <TableCell className="text-right">{delivery.status !== "pending" ? <ResendButton deliveryId={delivery.id} resendAction={resendWebhookDeliveryAction} /> : null}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableFrame>
      )}
    </>
  );
}
