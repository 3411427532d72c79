import type { Metadata } from "next";
import Link from "next/link";
import { AddEndpointForm, ApprovedSecrets, EndpointDecision } from "@/components/webhooks/webhook-controls";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { requirePermission } from "@/lib/auth/pages";
import { formatDateTime } from "@/lib/bank-time";
import { getDb } from "@/lib/db/client";
import { listEndpoints } from "@/lib/webhooks/endpoints";
import { disabledReasonWords, endpointStatusBadges } from "@/components/webhooks/words";
import { createWebhookEndpointAction, decideWebhookEndpointAction } from "./actions";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const staff = await requirePermission("staff.manage");
  const endpoints = await listEndpoints(await getDb());
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="The bank's systems hear here when a verification ends (token.finished), signed per Standard Webhooks. A new endpoint, or a new URL for one, receives customer outcomes only once a second administrator approves it; a new endpoint's signing secret is shown to that administrator, once."
      />
      <AddEndpointForm createAction={createWebhookEndpointAction} />
      <h2 className="mb-4 text-xl font-semibold">Endpoints</h2>
      <ApprovedSecrets>
        {endpoints.length === 0 ? (
          <EmptyState title="No endpoints yet">Add one above, or propose one with <code className="font-mono">npm run webhooks:add</code> on the server.</EmptyState>
        ) : (
          <TableFrame>
            <Table>
              <TableCaption className="sr-only">Webhook endpoints</TableCaption>
              <TableHead>
                <TableRow>
                  <TableHeaderCell>URL</TableHeaderCell>
                  <TableHeaderCell>Status</TableHeaderCell>
                  <TableHeaderCell>Added</TableHeaderCell>
                  <TableHeaderCell>Waiting / failed</TableHeaderCell>
                  <TableHeaderCell>
                    <span className="sr-only">Actions</span>
                  </TableHeaderCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {endpoints.map((endpoint) => {
                  const badge = endpointStatusBadges[endpoint.status];
                  return (
                    <TableRow key={endpoint.id} data-endpoint={endpoint.url}>
                      {/* Wide enough that a URL wraps in a few lines on a phone (the table scrolls sideways), not one letter a line. */}
                      <TableCell className="min-w-56">
                        <Link href={`/admin/webhooks/${endpoint.id}`} prefetch={false} className="font-semibold break-all underline">
                          {endpoint.url}
                        </Link>
                        {endpoint.description ? <div className="text-ink-muted">{endpoint.description}</div> : null}
                      </TableCell>
                      <TableCell>
                        <Badge tone={badge.tone}>{badge.label}</Badge>
                        {endpoint.disabledReason ? <div className="text-sm text-ink-muted">{disabledReasonWords[endpoint.disabledReason] ?? endpoint.disabledReason}</div> : null}
                      </TableCell>
                      <TableCell>
                        {formatDateTime(endpoint.proposedAt)}
                        <div className="text-sm text-ink-muted">by {endpoint.proposedByUsername}</div>
                      </TableCell>
                      <TableCell>
                        {endpoint.pending} / {endpoint.failed}
                      </TableCell>
                      <TableCell className="text-right">
                        {endpoint.status === "pending" && endpoint.proposedByUserId !== staff.userId ? (
                          <EndpointDecision endpointId={endpoint.id} decideAction={decideWebhookEndpointAction} />
                        ) : endpoint.status === "pending" ? (
                          <span className="text-sm text-ink-muted">Waiting for a second administrator</span>
                        ) : endpoint.proposedUrl ? (
                          <Link href={`/admin/webhooks/${endpoint.id}`} prefetch={false} className="text-sm underline" data-testid="url-change-waiting">
                            {endpoint.urlProposedByUserId === staff.userId ? "Your new URL waits for another administrator" : "A new URL waits for your approval"}
                          </Link>
                        ) : null}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableFrame>
        )}
      </ApprovedSecrets>
    </>
  );
}
