import { ArrowLeft, Radio } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { LegalHoldCard } from "@/components/compliance/legal-hold-card";
import { CrossSiteArrival } from "@/components/shell/cross-site-arrival";
import { ReviewStateBadge } from "@/components/review/review-state-badge";
import { RevealIdNumber } from "@/components/review/reveal-id-number";
import { TokenAccessLog, TokenHistory } from "@/components/review/token-history";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { requirePermission } from "@/lib/auth/pages";
import { hasPermission } from "@/lib/auth/permissions";
import { isOwnSiteNavigation } from "@/lib/auth/request-origin";
import { getDb } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { reviewKindLabels } from "@/lib/review/filters";
import { formatDateTime } from "@/lib/bank-time";
import { formatDuration } from "@/lib/review/format";
import { openReviewTokenDetail } from "@/lib/review/token-detail";
import { placeLegalHoldAction, releaseLegalHoldAction, revealIdNumberAction } from "./actions";

export const metadata: Metadata = { title: "Token history" };
export const dynamic = "force-dynamic";

/** A token as a supervisor reviews it: the facts, the full history, and who has looked at it. */
export default async function ReviewTokenPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requirePermission(REVIEW_PERMISSION);
  const { id } = await params;
  // Opening a token in review is recorded: another site's link reads and records nothing.
  if (!isOwnSiteNavigation(await headers())) return <CrossSiteArrival title="Open this token?" href={`/review/tokens/${encodeURIComponent(id)}`} action="Open the token" />;
  const detail = await openReviewTokenDetail(await getDb(), { staff, scope: branchScopeFor(staff) }, id).catch((error: unknown) => {
    // Another branch's token is "not found" too: guessing ids tells nothing.
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  const { token } = detail;
  const facts: [string, React.ReactNode][] = [
    ["State", <ReviewStateBadge key="state" state={token.state} />],
    ["Created", formatDateTime(token.createdAt)],
    ["Issued", token.issuedAt ? formatDateTime(token.issuedAt) : "—"],
    ["Expires", token.expiresAt ? formatDateTime(token.expiresAt) : "—"],
    ["Finished", token.finishedAt ? formatDateTime(token.finishedAt) : "—"],
    ["Time to result", formatDuration(token.secondsToResult)],
    ["Transaction number", token.transactionNumber ?? "—"],
    ["Teller", token.tellerName],
    ["Branch", token.branchName],
    ["Reference", <span key="reference" className="break-all">{token.reference}</span>],
    ["Purpose", token.purpose ?? "—"],
    ["Consent", token.consent ? `Attested by the teller (wording version ${token.consent.wordingVersion})` : "Not recorded (issued before consent was recorded)"],
    ...(token.kind === "remote"
      ? ([
          ["Link sent to", token.smsSentTo ? `${token.smsSentTo}${token.isEmailSent ? " and by e-mail" : ""}` : token.isEmailSent ? "E-mail only" : "Not sent by the service"],
          ["Options", token.optionsOn.length ? token.optionsOn.join(", ") : "None"],
        ] as [string, React.ReactNode][])
      : []),
    ...(token.failureReason && token.state !== "outcome_unknown"
      ? ([["Reason", <span key="reason" data-testid="detail-failure-reason">{token.failureReason}</span>]] as [string, React.ReactNode][])
      : []),
  ];

  return (
    <>
      <PageHeader
        title={token.token ? `Token ${token.token}` : "Attempt without a token"}
        description={`${reviewKindLabels[token.kind]} · ${token.idTypeLabel} · ${token.branchName}`}
        action={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="ghost">
              <Link href="/review">
                <ArrowLeft aria-hidden className="size-5" /> Back to the list
              </Link>
            </Button>
            {token.token ? (
              <Button asChild variant="secondary">
                <Link href={`/tokens/${token.id}`}>
                  <Radio aria-hidden className="size-5" /> Live page
                </Link>
              </Button>
            ) : null}
          </div>
        }
      />
      {token.state === "outcome_unknown" ? (
        <Alert tone="warning" title="Outcome unknown: the next step" className="mb-6" data-testid="outcome-unknown-explained">
          <p>{token.failureReason}</p>
          {/* Only an attempt without a token whose link went by SMS or e-mail can take the customer's (the SMS path's own rule). */}
          {token.isLinkSent && token.token === null ? (
            <p className="mt-2">
              <Link href={`/tokens/${token.id}`} className="font-semibold text-info-700 underline underline-offset-2">
                Open the token page to enter the token from the customer&apos;s SMS
              </Link>
            </p>
          ) : null}
        </Alert>
      ) : token.state === "failed" || token.state === "invalid" || token.state === "not_issued" ? (
        <Alert tone="danger" title={token.state === "failed" ? "Why the verification failed" : token.state === "invalid" ? "Why the token is invalid" : "Why no token was issued"} className="mb-6">
          <p data-testid="failure-reason-panel">{token.failureReason}</p>
        </Alert>
      ) : null}
      {/* minmax(0, …): no card's content may widen the page on a phone (it scrolled sideways at 390 px). */}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="flex flex-col gap-6">
          <Card aria-labelledby="customer-heading">
            <h2 id="customer-heading" className="mb-2 text-lg font-bold">
              Customer {token.idTypeLabel}
            </h2>
            {hasPermission(staff.role, "ids.reveal") && !token.identityErased ? (
              <RevealIdNumber tokenRequestId={token.id} maskedIdNumber={token.maskedIdNumber} reveal={revealIdNumberAction} />
            ) : (
              <p className="font-mono text-xl">{token.maskedIdNumber}</p>
            )}
          </Card>
          <Card aria-labelledby="facts-heading">
            <h2 id="facts-heading" className="mb-3 text-lg font-bold">
              What happened
            </h2>
            {/* On a phone each fact sits under its name: side by side, the longest name and a state badge were wider than the screen. */}
            <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-[max-content_minmax(0,1fr)] sm:gap-y-2">
              {facts.map(([term, value]) => (
                <div key={term} className="contents">
                  <dt className="text-ink-muted">{term}</dt>
                  <dd className="mb-2 min-w-0 font-medium [overflow-wrap:anywhere] sm:mb-0">{value}</dd>
                </div>
              ))}
            </dl>
          </Card>
        </div>
        <div className="flex flex-col gap-6">
          <Card aria-labelledby="history-heading">
            <h2 id="history-heading" className="mb-3 text-lg font-bold">
              History
            </h2>
            <TokenHistory events={detail.events} context={{ tellerName: token.tellerName, token: token.token, kind: token.kind, isLinkSent: token.isLinkSent, namesByUsername: detail.namesByUsername }} />
          </Card>
          {hasPermission(staff.role, "customers.records") ? (
            <LegalHoldCard
              tokenRequestId={token.id}
              hold={token.legalHold}
              erased={{ identity: token.identityErased, contact: token.contactErased }}
              place={placeLegalHoldAction}
              release={releaseLegalHoldAction}
              // Head office's hold is head office's to release (the action refuses anyone else).
              canRelease={!token.legalHold?.byHeadOffice || branchScopeFor(staff).kind === "all"}
            />
          ) : null}
          <Card aria-labelledby="access-heading">
            <h2 id="access-heading" className="mb-1 text-lg font-bold">
              Opened in review
            </h2>
            <p className="mb-2 text-sm text-ink-muted">Every opening and every reveal of the ID number is recorded.</p>
            <TokenAccessLog access={detail.access} />
          </Card>
        </div>
      </div>
    </>
  );
}
