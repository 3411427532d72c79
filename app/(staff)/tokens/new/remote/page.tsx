import type { Metadata } from "next";
import { randomUUID } from "node:crypto";
import { RemoteTokenForm } from "@/components/tokens/remote-token-form";
import { TokenKindTabs } from "@/components/tokens/token-kind-tabs";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { issueRemoteTokenAction } from "./actions";

export const metadata: Metadata = { title: "New remote token" };
// Each render carries a fresh idempotency key, and the page may hold customer data: never cached.
export const dynamic = "force-dynamic";

export default async function NewRemoteTokenPage() {
  await requirePermission("tokens.issue");
  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader title="New token" description="The customer verifies on their own phone through a link sent by SMS or e-mail." />
      <TokenKindTabs current="remote" />
      <RemoteTokenForm action={issueRemoteTokenAction} idempotencyKey={randomUUID()} />
    </div>
  );
}
