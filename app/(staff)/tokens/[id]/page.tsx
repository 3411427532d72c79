import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { CrossSiteArrival } from "@/components/shell/cross-site-arrival";
import { TokenDetails } from "@/components/tokens/token-details";
import { LiveQueryProvider } from "@/components/token-live/live-query-provider";
import { LiveTokenView } from "@/components/token-live/live-token-view";
import { PageHeader } from "@/components/ui/page-header";
import { recordAuditEvent } from "@/lib/audit";
import { requirePermission } from "@/lib/auth/pages";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { hasPermission } from "@/lib/auth/permissions";
import { isOwnSiteNavigation } from "@/lib/auth/request-origin";
import { getDb } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { getTokenRequestView } from "@/lib/tokens";
import { tokenKindLabels } from "@/lib/tokens/display";
import { liveViewSettings } from "@/lib/live/settings";
import { attachSmsTokenAction } from "./actions";
import { wakeTokenWatcher } from "@/lib/watcher/boot";
import { getLiveToken } from "@/lib/live/token-detail";
import { readScopedTokenRequest } from "@/lib/tokens/token-row";
import { recordTokenOpened } from "@/lib/watcher/viewers";

export const metadata: Metadata = { title: "Token" };
// Customer data, live: rendered per request, never cached (Cache-Control: no-store).
export const dynamic = "force-dynamic";

/**
 * The live token page. The first answer is built here (no spinner, no layout shift); the client
 * view then polls GET /api/tokens/[id] until the state is final. A supervisor opening it is
 * recorded in the audit trail.
 */
export default async function TokenPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requirePermission("tokens.view");
  const { id } = await params;
  // Opening a token is written down (watched from now; a supervisor's view audited): another
  // site's link reads and writes nothing, only offers Veridesk's own link.
  if (!isOwnSiteNavigation(await headers())) return <CrossSiteArrival title="Open this token?" href={`/tokens/${encodeURIComponent(id)}`} action="Open the token" />;
  const scope = branchScopeFor(staff);
  const db = await getDb();
  const notFoundIfMissing = (error: unknown): never => {
    // Another branch's token is "not found" too: guessing ids tells nothing.
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  };

  // An attempt the service refused (or that is still being issued) has no token to follow: it
  // keeps the issuing view, with what happened and why.
  const request = await getTokenRequestView(scope, id, { db }).catch(notFoundIfMissing);
  if (request.outcome !== "issued" && request.outcome !== "outcome_unknown") {
    return (
      <div className="mx-auto w-full max-w-3xl">
        <PageHeader title={`${tokenKindLabels[request.kind]} token`} description={`${request.idTypeLabel} ${request.maskedIdNumber}`} />
        <TokenDetails view={request} />
      </div>
    );
  }

  const initial = await getLiveToken(db, { userId: staff.userId, scope }, id, liveViewSettings()).catch(notFoundIfMissing);
  // Watched from now, and asked about now: the page's next poll shows the service's latest word.
  if (!initial.token.isFinal) {
    await recordTokenOpened(db, id, new Date());
    wakeTokenWatcher();
  }

  // A supervisor opening a teller's token is on record (the review pages record the same action).
  if (hasPermission(staff.role, "tokens.export") && !initial.token.isMine) {
    const { row } = await readScopedTokenRequest(db, scope, id);
    await recordAuditEvent(db, {
      action: "token.viewed_by_supervisor",
      actor: { userId: staff.userId, username: staff.username },
      subject: { type: "token_request", id },
      branchId: row.branchId,
      details: { page: "live", state: initial.token.state },
    });
  }

  // A supervisor's act on someone else's attempt (ADR 0037): the issuer is only told whom to ask.
  const canAttachSmsToken = hasPermission(staff.role, "tokens.recover") && !initial.token.isMine;

  return (
    <div className="mx-auto w-full max-w-6xl">
      <LiveQueryProvider>
        <LiveTokenView initial={initial} attachSmsToken={canAttachSmsToken ? attachSmsTokenAction : undefined} />
      </LiveQueryProvider>
    </div>
  );
}
