"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LogIn, Printer, RotateCcw } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import type { LiveTokenDetail, LiveTokenResponse } from "@/lib/live/dto";
import { ConnectionStatus } from "./connection-status";
import { CopyButton } from "@/components/ui/copy-button";
import { Countdown } from "./countdown";
import { endsPolling, fetchLive, LiveFetchError, type Fetched } from "./fetch-live";
import { formatTime } from "@/lib/bank-time";
import { OutcomePanel } from "./outcome-panel";
import type { AttachSmsTokenAction } from "./sms-token-form";
import { StateBadge } from "./state-badge";
import { TokenTimeline } from "./token-timeline";

// Loaded only on the pages that show them (ADR 0027, the first-load JS budget): the SMS-token form (react-hook-form and
// zod) on an attempt with no answer, the QR code (qrcode) on an open fingerprint token.
const SmsTokenForm = dynamic(() => import("./sms-token-form").then((module) => module.SmsTokenForm));
const TokenQrCode = dynamic(() => import("./token-qr-code").then((module) => module.TokenQrCode));

/** How often the page asks Veridesk (never the service) while the token is open. */
export const TOKEN_PAGE_POLL_MS = 2_000;
/**
 * An attempt without an answer is final for the teller, but a supervisor may still give it the
 * token from the customer's SMS: the issuer's page keeps asking, slowly (an unchanged answer is a
 * 304), so it shows the token without a reload.
 */
export const AWAITING_SMS_TOKEN_POLL_MS = 10_000;

export function liveTokenQueryKey(id: string) {
  return ["token", id] as const;
}

/**
 * The live token page: the server component hands over the first answer, then this polls
 * `GET /api/tokens/[id]` until the state is final. The route reads the database only, so any
 * number of open pages cost the verification service nothing.
 */
export function LiveTokenView({
  initial,
  attachSmsToken,
}: {
  initial: LiveTokenResponse;
  /** Given when the viewer may enter a token from the customer's SMS (tokens.recover, not the issuer). */
  attachSmsToken?: AttachSmsTokenAction;
}) {
  const id = initial.token.id;
  const queryClient = useQueryClient();
  const query = useQuery<Fetched<LiveTokenResponse>, LiveFetchError>({
    queryKey: liveTokenQueryKey(id),
    // Conditional (ADR 0026): an unchanged token costs a 304.
    queryFn: ({ signal }) =>
      fetchLive<LiveTokenResponse>(`/api/tokens/${encodeURIComponent(id)}`, signal, queryClient.getQueryData<Fetched<LiveTokenResponse>>(liveTokenQueryKey(id))),
    initialData: () => ({ body: initial, clockOffsetMs: Date.parse(initial.serverNow) - Date.now() }),
    refetchInterval: (current) => {
      if (endsPolling(current.state.error)) return false;
      const shown = current.state.data?.body.token;
      if (shown?.awaitsSmsToken) return AWAITING_SMS_TOKEN_POLL_MS;
      return shown?.isFinal ? false : TOKEN_PAGE_POLL_MS;
    },
  });

  const { body, clockOffsetMs } = query.data;
  const token = body.token;
  const error = query.error;
  const isSessionEnded = error instanceof LiveFetchError && error.isSessionEnded;

  return (
    <div className="flex flex-col gap-6" data-testid="live-token" data-state={token.state}>
      <PageHeader
        title={token.kind === "fingerprint" ? "Fingerprint token" : "Remote verification token"}
        description={`${token.idTypeLabel} ${token.maskedIdNumber} · Reference ${token.reference}`}
        action={<PageActions token={token} />}
      />
      {isSessionEnded ? (
        <Alert tone="warning" title="Your session has ended">
          <p>
            The token is still being followed and its outcome will be recorded.{" "}
            <Link className="font-semibold underline" href={`/sign-in?next=${encodeURIComponent(`/tokens/${id}`)}`}>
              <LogIn aria-hidden className="inline size-4" /> Sign in again
            </Link>{" "}
            to see it.
          </p>
        </Alert>
      ) : null}

      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex flex-col gap-6">
          <Card className="flex flex-col gap-5">
            {token.token ? (
              <div>
                <p className="text-sm font-semibold tracking-wide text-ink-muted uppercase">Token</p>
                <div className="mt-1 flex flex-wrap items-center gap-4">
                  <p className="font-mono text-token font-bold text-ink select-all" data-testid="token-value">
                    {token.token}
                  </p>
                  <CopyButton value={token.token} label="Copy token" />
                </div>
              </div>
            ) : null}

            <div className="flex flex-wrap items-center gap-x-8 gap-y-3">
              <div aria-live="polite" aria-atomic="true">
                <span className="sr-only">State: </span>
                <StateBadge state={token.state} kind={token.kind} size="lg" />
              </div>
              <TimeLeft token={token} serverNow={body.serverNow} clockOffsetMs={clockOffsetMs} />
            </div>

            <div aria-live="polite">
              <OutcomePanel token={token} canAttachSmsToken={Boolean(attachSmsToken)} />
            </div>

            {token.awaitsSmsToken && attachSmsToken ? (
              <SmsTokenForm tokenRequestId={token.id} action={attachSmsToken} onAttached={() => query.refetch()} />
            ) : null}

            {/* An attempt waiting for the customer's SMS token is not "final": the panel above says what to do. */}
            {token.awaitsSmsToken ? null : (
              <ConnectionStatus
                updatedAt={query.dataUpdatedAt}
                isConnectionLost={Boolean(error) && !isSessionEnded}
                isStopped={token.isFinal}
                freshness={{ lastAnswerAt: token.lastAnswerAt, staleAfterMs: token.staleAfterMs, clockOffsetMs }}
                serviceProblem={token.serviceProblem}
              />
            )}
          </Card>
          <Card>
            <h2 className="mb-3 text-lg font-bold">History</h2>
            <TokenTimeline events={token.events} />
          </Card>
        </div>

        <aside className="flex flex-col gap-6">
          {token.kind === "fingerprint" && token.token && !token.isFinal ? (
            <Card className="flex flex-col items-center gap-2">
              <TokenQrCode value={token.token} />
              <p className="text-center text-sm text-ink-muted">Scan with the fingerprint device</p>
            </Card>
          ) : null}
          <Card>
            <h2 className="mb-3 text-lg font-bold">Details</h2>
            <TokenDetails token={token} />
          </Card>
        </aside>
      </div>
    </div>
  );
}

function PageActions({ token }: { token: LiveTokenDetail }) {
  if (token.newTokenHref) {
    return (
      <div className="flex gap-3">
        {token.slipHref ? (
          <Button asChild variant="secondary">
            <Link href={token.slipHref}>
              <Printer aria-hidden className="size-5" /> Print slip
            </Link>
          </Button>
        ) : null}
        <Button asChild size="lg">
          <Link href={token.newTokenHref} data-testid="new-token-for-customer">
            <RotateCcw aria-hidden className="size-5" /> New token for this customer
          </Link>
        </Button>
      </div>
    );
  }
  if (token.slipHref) {
    return (
      <Button asChild size="lg">
        <Link href={token.slipHref}>
          <Printer aria-hidden className="size-5" /> Print slip
        </Link>
      </Button>
    );
  }
  return null;
}

function TimeLeft({ token, serverNow, clockOffsetMs }: { token: LiveTokenDetail; serverNow: string; clockOffsetMs: number }) {
  if (!token.expiresAt) return null;
  if (token.state === "waiting" || token.state === "expired") {
    return (
      <div className="flex flex-col">
        <span className="text-sm font-semibold tracking-wide text-ink-muted uppercase">Time left to start</span>
        <Countdown expiresAt={token.expiresAt} serverNow={serverNow} offsetMs={clockOffsetMs} />
      </div>
    );
  }
  return (
    <p className="text-ink-muted">
      Valid until <strong className="text-ink">{formatTime(token.expiresAt, { seconds: true })}</strong>
      {token.finishedAt ? (
        <>
          {" "}
          · finished <strong className="text-ink">{formatTime(token.finishedAt, { seconds: true })}</strong>
        </>
      ) : null}
    </p>
  );
}

function TokenDetails({ token }: { token: LiveTokenDetail }) {
  const rows: [string, React.ReactNode][] = [
    ["Kind", token.kind === "fingerprint" ? "Fingerprint (in branch)" : "Remote (link to customer)"],
    ["ID type", token.idTypeLabel],
    ["ID number", <span key="id" className="font-mono">{token.maskedIdNumber}</span>],
    ["Reference", token.reference],
  ];
  if (token.purpose) rows.push(["Purpose", token.purpose]);
  if (token.delivery) {
    const { maskedPhone, maskedEmail, smsSent, isUnconfirmed } = token.delivery;
    rows.push([
      isUnconfirmed ? "Link may have gone to" : "Link sent to",
      <ul key="delivery" data-testid="delivery" data-unconfirmed={isUnconfirmed ? "true" : undefined}>
        {smsSent && maskedPhone ? <li>SMS to {maskedPhone}</li> : null}
        {maskedEmail ? <li>E-mail to {maskedEmail}</li> : null}
        {!(smsSent && maskedPhone) && !maskedEmail ? <li>Not sent</li> : null}
      </ul>,
    ]);
    const optionsOn = token.delivery.options.filter((option) => option.isOn).map((option) => option.label);
    if (optionsOn.length > 0) rows.push(["Options", optionsOn.join(", ")]);
  }
  rows.push(["Issued by", `${token.tellerName}, ${token.branchName}`]);
  if (token.issuedAt) rows.push(["Issued", formatTime(token.issuedAt, { seconds: true })]);
  return (
    <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-ink-muted">{label}</dt>
          <dd className="font-medium break-words text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
