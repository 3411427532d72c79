import type { Metadata } from "next";
import { headers } from "next/headers";
import { randomUUID } from "node:crypto";
import { RemoteTokenForm } from "@/components/tokens/remote-token-form";
import { RestartNotice } from "@/components/tokens/restart-notice";
import { TokenKindTabs } from "@/components/tokens/token-kind-tabs";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { isOwnSiteNavigation } from "@/lib/auth/request-origin";
import { currentConsentWording } from "@/lib/compliance/consent";
import { listPurposesFor } from "@/lib/compliance/purposes";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { restartViewerOf, startRestartForm } from "@/lib/tokens/restart-values";
import { issueRemoteTokenAction } from "./actions";

export const metadata: Metadata = { title: "New remote token" };
// Each render carries a fresh idempotency key, and the page may hold customer data: never cached.
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function NewRemoteTokenPage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requirePermission("tokens.issue");
  // "New token for this customer": the earlier request's id only; its details stay on the server
  // (ADR 0038). Only from Veridesk's own pages: another site's link neither reads nor records.
  const { from } = await searchParams;
  const purposes = await listPurposesFor(await getDb(), "remote");
  const restart =
    typeof from === "string" && isOwnSiteNavigation(await headers()) ? await startRestartForm(restartViewerOf(staff), from, "remote", { db: await getDb() }) : null;
  const prefill = restart?.status === "ready" ? restart.prefill : undefined;
  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader title="New token" description="The customer verifies on their own phone through a link sent by SMS or e-mail." />
      <TokenKindTabs current="remote" />
      {restart ? <RestartNotice restart={restart.status === "ready" ? { fromToken: restart.prefill.fromToken } : "refused"} /> : null}
      <RemoteTokenForm
        consent={await currentConsentWording(await getDb())}
        action={issueRemoteTokenAction}
        idempotencyKey={randomUUID()}
        purposes={purposes}
        issueTimeoutSeconds={Math.round(env().UPSTREAM_ISSUE_TIMEOUT_MS / 1000)}
        restart={prefill}
      />
    </div>
  );
}
