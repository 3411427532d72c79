import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { getDb } from "@/lib/db/client";
import { ssoRedirectUri } from "@/lib/auth/sso/provider";
import { env, isSsoConfigured, mfaRequiredFor } from "@/lib/env";
import { readStaffSignInOverview } from "@/lib/operations/staff-sign-in";
import { OVERDUE_SECONDS, readOperationsOverview } from "@/lib/operations/overview";
import { formatDateTime } from "@/lib/bank-time";
import { currentHeartbeat, HEARTBEAT_SILENT_MS, listInstances } from "@/lib/server/heartbeat";
import { checkReadiness } from "@/lib/server/readiness";
import { readRiskLag } from "@/lib/risk/evaluator";
import { webhookHealth } from "@/lib/webhooks/endpoints";

export const metadata: Metadata = { title: "Operations" };
export const dynamic = "force-dynamic";

function Figures({ rows }: { rows: [label: string, value: ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-ink-muted">{label}</dt>
          <dd className="font-medium break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/**
 * How the service runs, for administrators: the provider budget all instances
 * share (a 429's pause and the deferred polls are the backlog's cause), the watcher's backlog and
 * lag, the last hour's answers, attempts whose outcome is unknown, and this instance's readiness.
 * Counts and times only; reloading the page reads them again.
 */
export default async function OperationsPage() {
  await requirePermission("operations.view");
  const settings = env();
  const db = await getDb();
  const [overview, readiness, instances, staffSignIn] = await Promise.all([
    readOperationsOverview(db),
    checkReadiness(),
    listInstances(db),
    readStaffSignInOverview(db, new Date()),
  ]);
  const webhooks = await webhookHealth(db);
  const riskLag = await readRiskLag(db);
  const hasBankSignIn = isSsoConfigured(settings);
  const thisInstance = currentHeartbeat()?.instanceId;
  const { budget, backlog, lastHour, outcomeUnknown, mayExist } = overview;
  const isPaused = budget.pausedUntil !== null && budget.pausedUntil > overview.at;
  // The budget counts calls per one-second window; an older window's count is history.
  const isCurrentWindow = budget.windowStartedAt !== null && overview.at.getTime() - budget.windowStartedAt.getTime() < 1_000;
  const issuingAttempts = lastHour.issued + lastHour.refused + lastHour.failed + lastHour.outcomeUnknown;
  const issuingFaults = lastHour.failed + lastHour.outcomeUnknown;

  return (
    <>
      <PageHeader title="Operations" description={`How the verification service and the token watcher are doing, read at ${formatDateTime(overview.at)}. Reload for fresh figures.`} />
      <div className="flex flex-col gap-6">
        <Card className="flex flex-col gap-4" data-testid="provider-budget">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">Provider budget</h2>
            {isPaused ? <Badge tone="warning">Paused</Badge> : budget.deferredSince ? <Badge tone="warning">Polls deferred</Badge> : <Badge tone="success">Within budget</Badge>}
          </div>
          <p className="text-ink-muted">
            All instances together make at most {settings.WATCHER_CALLS_PER_SECOND} status calls a second; a 429 from the service pauses every instance for its Retry-After.
          </p>
          <Figures
            rows={[
              ["Paused until", isPaused ? formatDateTime(budget.pausedUntil!) : "not paused"],
              ["Why", isPaused ? (budget.pauseReason ?? "—") : "—"],
              ["Polls deferred for want of budget since", budget.deferredSince ? formatDateTime(budget.deferredSince) : "none deferred"],
              ["Status calls in the current second", String(isCurrentWindow ? budget.callsInWindow : 0)],
            ]}
          />
        </Card>

        <Card className="flex flex-col gap-4" data-testid="watcher-backlog">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">Token watcher</h2>
            {backlog.overdue > 0 ? <Badge tone="warning">Backlog</Badge> : <Badge tone="success">Keeping up</Badge>}
          </div>
          <Figures
            rows={[
              ["Open tokens followed", String(backlog.open)],
              ["Due for a poll now", String(backlog.due)],
              [`Overdue by more than ${OVERDUE_SECONDS} s`, String(backlog.overdue)],
              ["Polls under way (all instances)", String(backlog.leased)],
              ["Lag of the oldest due poll", seconds(backlog.lagMs)],
              ["Open tokens whose last poll met a fault", String(backlog.inFault)],
            ]}
          />
        </Card>

        <Card className="flex flex-col gap-4" data-testid="risk-rules-lag">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">Risk rules</h2>
            {riskLag.lastError ? <Badge tone="danger">Failing</Badge> : riskLag.tokenVersionsBehind + riskLag.auditEventsBehind > 0 ? <Badge tone="warning">Behind</Badge> : <Badge tone="success">Keeping up</Badge>}
          </div>
          <p className="text-ink-muted">The rules run behind issuing, over what changed since their last pass (ADR 0046): counts only, never a case.</p>
          <Figures
            rows={[
              ["Token changes not yet evaluated", String(riskLag.tokenVersionsBehind)],
              ["Audit events not yet evaluated", String(riskLag.auditEventsBehind)],
              ["Oldest audit event waiting since", riskLag.oldestUnevaluatedAt ? formatDateTime(riskLag.oldestUnevaluatedAt) : "none waiting"],
              ["Last pass that found changes", riskLag.evaluatedAt ? formatDateTime(riskLag.evaluatedAt) : "not run yet"],
              ["Last error", riskLag.lastError ?? "none"],
            ]}
          />
        </Card>

        <Card className="flex flex-col gap-4" data-testid="service-last-hour">
          <h2 className="text-lg font-semibold">The service over the last hour</h2>
          <Figures
            rows={[
              ["Issuing attempts", String(issuingAttempts)],
              ["Issued", String(lastHour.issued)],
              ["Refused by the service (bad details)", String(lastHour.refused)],
              ["Failed (service fault)", String(lastHour.failed)],
              ["Answer never came (outcome unknown)", String(lastHour.outcomeUnknown)],
              ["Issuing fault rate", issuingAttempts === 0 ? "no attempts" : `${Math.round((issuingFaults / issuingAttempts) * 100)} %`],
              ["Status calls: fault episodes / recoveries", `${lastHour.statusFaults} / ${lastHour.statusRecoveries}`],
            ]}
          />
        </Card>

        <Card className="flex flex-col gap-4" data-testid="tokens-may-exist">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">Tokens that may exist but are not recorded</h2>
            {mayExist.count + mayExist.waitingInMemory === 0 ? <Badge tone="success">None</Badge> : <Badge tone="warning">{mayExist.count + mayExist.waitingInMemory} to follow up</Badge>}
          </div>
          <p className="text-ink-muted">
            The service may have issued these tokens, and sent the link where one was asked for, but Veridesk has no token recorded for them. Where a link was sent, a supervisor
            who did not issue the attempt can enter the token from the customer&apos;s SMS or e-mail on the attempt&apos;s page until the time shown; after it, any token of the
            attempt has expired. An attempt that sent no link needs a new token.
          </p>
          <Figures
            rows={[
              ["Answers waiting in this instance's memory (the database refused them; retried until written)", String(mayExist.waitingInMemory)],
              ["Attempts without a recorded token", String(mayExist.count)],
            ]}
          />
          {mayExist.attempts.length > 0 ? (
            <TableFrame>
              <Table>
                <TableCaption className="sr-only">Attempts whose token may exist, oldest first</TableCaption>
                <TableHead>
                  <TableRow>
                    <TableHeaderCell>Attempted</TableHeaderCell>
                    <TableHeaderCell>Branch</TableHeaderCell>
                    <TableHeaderCell>Kind</TableHeaderCell>
                    <TableHeaderCell>State</TableHeaderCell>
                    <TableHeaderCell>SMS token can be entered until</TableHeaderCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {mayExist.attempts.map((attempt) => (
                    <TableRow key={attempt.id} data-attempt-id={attempt.id}>
                      <TableCell>{formatDateTime(attempt.createdAt)}</TableCell>
                      <TableCell>{attempt.branchName ?? "—"}</TableCell>
                      <TableCell>{attempt.kind === "remote" ? "Remote" : "Fingerprint"}</TableCell>
                      <TableCell>{attempt.outcome === "pending" ? "No answer recorded (being marked outcome unknown)" : "Outcome unknown"}</TableCell>
                      <TableCell>{attempt.smsEntryUntil ? formatDateTime(attempt.smsEntryUntil) : "— (no SMS or e-mail sent: expires unused)"}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableFrame>
          ) : null}
        </Card>

        <Card className="flex flex-col gap-4" data-testid="outcome-unknown">
          <h2 className="text-lg font-semibold">Attempts with no answer (last 24 hours)</h2>
          <p className="text-ink-muted">
            Where the attempt sent a link, it may have reached the customer: a supervisor who did not issue it can enter the token from the customer&apos;s SMS or e-mail on the
            attempt&apos;s page, and the watcher follows it. An attempt that sent no link needs a new token.
          </p>
          <Figures
            rows={[
              ["Attempts", String(outcomeUnknown.last24h)],
              ["Oldest", outcomeUnknown.oldestAt ? formatDateTime(outcomeUnknown.oldestAt) : "—"],
            ]}
          />
        </Card>

        <Card className="flex flex-col gap-4" data-testid="webhooks">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">Webhooks to the bank</h2>
            {webhooks.disabled.length > 0 ? <Badge tone="danger">{webhooks.disabled.length === 1 ? "An endpoint is disabled" : `${webhooks.disabled.length} endpoints disabled`}</Badge> : null}
          </div>
          <p className="text-ink-muted">
            An endpoint that answers 410 Gone, or fails for five days, is disabled and hears nothing until an administrator enables it again on the{" "}
            <Link href="/admin/webhooks" className="underline">
              Webhooks
            </Link>{" "}
            page.
          </p>
          <Figures
            rows={[
              ["Deliveries waiting or retrying", String(webhooks.pendingDeliveries)],
              ["Deliveries given up (about three days of retries)", String(webhooks.failedDeliveries)],
              ...webhooks.disabled.map(
                (endpoint): [string, ReactNode] => [
                  `Disabled: ${endpoint.url}`,
                  `${endpoint.reason === "gone" ? "answered 410 Gone" : endpoint.reason === "failing" ? "five days of failures" : "by an administrator"}${endpoint.at ? `, ${formatDateTime(endpoint.at)}` : ""}`,
                ],
              ),
            ]}
          />
        </Card>

        <Card className="flex flex-col gap-4" data-testid="instances">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">Instances</h2>
            {instances.some((instance) => instance.status === "silent") ? <Badge tone="warning">One is silent</Badge> : <Badge tone="success">All heard from</Badge>}
          </div>
          <p className="text-ink-muted">
            Every instance heard from in the last hour. One silent for more than {HEARTBEAT_SILENT_MS / 1000} s stopped without saying so (killed, or its machine is down);
            its tokens are taken over by the others when their leases run out.
          </p>
          <TableFrame>
            <Table>
              <TableCaption className="sr-only">Instances heard from in the last hour</TableCaption>
              <TableHead>
                <TableRow>
                  <TableHeaderCell>Instance</TableHeaderCell>
                  <TableHeaderCell>State</TableHeaderCell>
                  <TableHeaderCell>Last heartbeat</TableHeaderCell>
                  <TableHeaderCell>Started</TableHeaderCell>
                  <TableHeaderCell>Watcher</TableHeaderCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {instances.map((instance) => (
                  <TableRow key={instance.instanceId} data-instance-pid={instance.pid} data-status={instance.status}>
                    <TableCell className="font-mono text-sm">
                      {instance.host} · pid {instance.pid}
                      {instance.instanceId === thisInstance ? <span className="ml-2 font-sans text-ink-muted">(this one)</span> : null}
                    </TableCell>
                    <TableCell>
                      {instance.status === "running" ? <Badge tone="success">Running</Badge> : instance.status === "stopping" ? <Badge tone="info">Stopping</Badge> : <Badge tone="warning">Silent</Badge>}
                    </TableCell>
                    <TableCell>{seconds(Math.max(0, overview.at.getTime() - instance.lastSeenAt.getTime()))} ago</TableCell>
                    <TableCell>{formatDateTime(instance.startedAt)}</TableCell>
                    <TableCell>{instance.runsWatcher ? "runs it" : "off"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableFrame>
        </Card>

        <Card className="flex flex-col gap-4" data-testid="staff-sign-in">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">Staff sign-in</h2>
            {hasBankSignIn ? <Badge tone="success">Bank sign-in on</Badge> : <Badge tone="info">Passwords only</Badge>}
          </div>
          <p className="text-ink-muted">
            {hasBankSignIn
              ? "Staff sign in through the bank's identity provider. Only the break-glass administrators below may use a password, for when the provider is down; each such sign-in is listed here."
              : "Single sign-on is not configured: every account signs in with its password. Register the redirect URI below at the bank's identity provider and set SSO_ISSUER, SSO_CLIENT_ID and SSO_CLIENT_SECRET to turn it on."}
          </p>
          <Figures
            rows={[
              ["Redirect URI to register", <code key="uri" className="font-mono text-sm break-all" data-testid="sso-redirect-uri">{ssoRedirectUri(settings)}</code>],
              ["Identity provider", settings.SSO_ISSUER ?? "—"],
              ["Required group / admin group", `${settings.SSO_REQUIRED_GROUP ?? "none"} / ${settings.SSO_ADMIN_GROUP ?? "none"}`],
              ["Second factor at the bank", hasBankSignIn ? (settings.SSO_REQUIRE_MFA ? `required (amr ${settings.SSO_MFA_AMR.join(", ")}${settings.SSO_ACR_VALUES ? `; acr ${settings.SSO_ACR_VALUES.join(", ")}` : ""})` : "not required") : "—"],
              ["Second factor with a password", mfaRequiredFor(settings) === "all" ? "every account" : "administrators"],
              ["Bank sign-ins / refusals (24 h)", `${staffSignIn.bankSignInsLastDay} / ${staffSignIn.bankRefusalsLastDay}`],
              [
                "Break-glass accounts",
                staffSignIn.breakGlassAccounts.length === 0
                  ? "none (npm run staff:create -- --break-glass)"
                  : staffSignIn.breakGlassAccounts.map((account) => `${account.username}${account.isDisabled ? " (disabled)" : ""}`).join(", "),
              ],
            ]}
          />
          <h3 className="font-semibold">Break-glass sign-ins (last 90 days)</h3>
          {staffSignIn.breakGlassSignIns.length === 0 ? (
            <p className="text-ink-muted" data-testid="break-glass-none">None.</p>
          ) : (
            <TableFrame>
              <Table>
                <TableCaption className="sr-only">Break-glass sign-ins, newest first</TableCaption>
                <TableHead>
                  <TableRow>
                    <TableHeaderCell>Account</TableHeaderCell>
                    <TableHeaderCell>When</TableHeaderCell>
                    <TableHeaderCell>From</TableHeaderCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {staffSignIn.breakGlassSignIns.map((signIn) => (
                    <TableRow key={`${signIn.username}-${signIn.at.toISOString()}`} data-testid="break-glass-sign-in">
                      <TableCell className="font-mono text-sm">{signIn.username}</TableCell>
                      <TableCell>{formatDateTime(signIn.at)}</TableCell>
                      <TableCell className="font-mono text-sm">{signIn.ip ?? "—"}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableFrame>
          )}
        </Card>

        <Card className="flex flex-col gap-4" data-testid="instance-readiness">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">This instance</h2>
            {readiness.ok ? <Badge tone="success">Ready</Badge> : <Badge tone="danger">Not ready</Badge>}
          </div>
          <p className="text-ink-muted">The same checks the balancer reads at /api/health/ready.</p>
          <Figures
            rows={[
              ["Serving", readiness.checks.draining.detail],
              ["Database", readiness.checks.database.detail],
              ["Database writes", readiness.checks.writes.detail],
              ["Answers waiting to be recorded", readiness.checks.recording.detail],
              ["Embedded database's disk", readiness.checks.disk.detail],
              ["Schema", readiness.checks.migrations.detail],
              ["Watcher", readiness.checks.watcher.detail],
            ]}
          />
        </Card>
      </div>
    </>
  );
}
