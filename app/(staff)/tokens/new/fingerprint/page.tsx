import type { Metadata } from "next";
import { randomUUID } from "node:crypto";
import { FingerprintTokenForm } from "@/components/tokens/fingerprint-token-form";
import { TokenKindTabs } from "@/components/tokens/token-kind-tabs";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { requirePermission } from "@/lib/auth/pages";
import { currentConsentWording } from "@/lib/compliance/consent";
import { listPurposesFor } from "@/lib/compliance/purposes";
import { env } from "@/lib/env";
import { loadRestartValues } from "@/lib/watcher/restart-values";
import { issueFingerprintTokenAction } from "./actions";

export const metadata: Metadata = { title: "New fingerprint token" };
// Each render carries a fresh idempotency key, and the page may hold customer data: never cached.
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function NewFingerprintTokenPage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requirePermission("tokens.issue");
  // "New token for this customer" (issue 6): the earlier request, decrypted here, never via the URL.
  const { from } = await searchParams;
  const purposes = await listPurposesFor("fingerprint");
  const restart = typeof from === "string" ? await loadRestartValues(branchScopeFor(staff), from, "fingerprint") : null;
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader title="New token" description="The customer is verified with their Ghana Card and a fingerprint scan." />
      <TokenKindTabs current="fingerprint" />
      {restart ? (
        <Alert tone="info" title="New token for the same customer" className="mb-6">
          The details of the earlier token{restart.fromToken ? ` ${restart.fromToken}` : ""} are filled in. Check them with the customer before issuing.
        </Alert>
      ) : null}
      <FingerprintTokenForm consent={await currentConsentWording()} action={issueFingerprintTokenAction} idempotencyKey={randomUUID()} purposes={purposes} issueTimeoutSeconds={Math.round(env().UPSTREAM_ISSUE_TIMEOUT_MS / 1000)} defaultValues={restart?.values} branchName={staff.branch.name} />
    </div>
  );
}
