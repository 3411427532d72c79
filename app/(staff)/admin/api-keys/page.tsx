import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { listApiKeys } from "@/lib/api/keys";
import { requirePermission } from "@/lib/auth/pages";
import { formatDateTime } from "@/lib/bank-time";
import { getDb } from "@/lib/db/client";
import { listBranches } from "@/lib/staff/branches";
import { approveApiKeyAction, cancelApiKeyAction, proposeApiKeyAction, rejectApiKeyAction, revokeApiKeyAction, rollApiKeyAction } from "./actions";
import { ApiKeysPanel, type ApiKeyRow } from "./api-keys-panel";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

/**
 * The keys the bank's own systems call /api/v1 with (ADR 0044): propose, approve (a second
 * administrator, who sees the key once), roll the same way (with an overlap from the approval), revoke; when each was last used.
 */
export default async function ApiKeysPage() {
  const staff = await requirePermission("staff.manage");
  const db = await getDb();
  const [keys, branches] = await Promise.all([listApiKeys(db), listBranches(db)]);
  const rows: ApiKeyRow[] = keys.map((key) => ({
    id: key.id,
    name: key.name,
    environment: key.environment,
    status: key.status,
    keyHint: key.keyHint,
    scopes: key.scopes,
    branches: key.branches,
    expiresAt: formatDateTime(key.expiresAt),
    lastUsedAt: key.lastUsedAt ? formatDateTime(key.lastUsedAt) : null,
    proposedBy: key.proposedByUsername,
    proposedAt: formatDateTime(key.proposedAt),
    isOwnProposal: key.proposedByUserId === staff.userId,
    isRoll: key.rolledFromId !== null,
  }));
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys for the bank's own systems (the onboarding app, the loan system) to issue and follow tokens through the API. A new key, and a roll, needs a second administrator. Only a fingerprint of each key is kept: a key is shown once."
      />
      <ApiKeysPanel
        keys={rows}
        branches={branches.map((branch) => ({ id: branch.id, code: branch.code, name: branch.name }))}
        proposeAction={proposeApiKeyAction}
        approveAction={approveApiKeyAction}
        rejectAction={rejectApiKeyAction}
        cancelAction={cancelApiKeyAction}
        rollAction={rollApiKeyAction}
        revokeAction={revokeApiKeyAction}
      />
    </>
  );
}
