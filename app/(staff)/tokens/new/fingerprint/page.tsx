import type { Metadata } from "next";
import { randomUUID } from "node:crypto";
import { FingerprintTokenForm } from "@/components/tokens/fingerprint-token-form";
import { TokenKindTabs } from "@/components/tokens/token-kind-tabs";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { issueFingerprintTokenAction } from "./actions";

export const metadata: Metadata = { title: "New fingerprint token" };
// Each render carries a fresh idempotency key, and the page may hold customer data: never cached.
export const dynamic = "force-dynamic";

export default async function NewFingerprintTokenPage() {
  const staff = await requirePermission("tokens.issue");
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader title="New token" description="The customer is verified with their Ghana Card and a fingerprint scan." />
      <TokenKindTabs current="fingerprint" />
      <FingerprintTokenForm action={issueFingerprintTokenAction} idempotencyKey={randomUUID()} branchName={staff.branch.name} />
    </div>
  );
}
