"use server";

import { apiKeyDecisionSchema, proposeApiKeySchema, rollApiKeySchema } from "@/lib/api/admin-schemas";
import { approveApiKey, decideAgainstApiKey, proposeApiKey, proposeApiKeyRoll, revokeApiKey } from "@/lib/api/keys";
import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";

/**
 * The integration API's keys (ADR 0044). A new key is a grant of customer data: one administrator
 * proposes it, a second approves and is shown the key once (ADR 0020). Rolling mints a working key
 * too: the same two people, the approval reusing the creation's (a roll's proposal is a pending key).
 * Revoking only removes access: one administrator. Every step is audited by lib/api/keys.ts.
 */

const DAY_MS = 24 * 60 * 60_000;

export const proposeApiKeyAction = defineAction(
  { name: "api_key.propose", schema: proposeApiKeySchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const row = await proposeApiKey(
      await getDb(),
      staff,
      { ...input, expiresAt: new Date(Date.now() + input.expiresInDays * DAY_MS) },
      requestId,
    );
    return { keyId: row.id };
  },
);

export const approveApiKeyAction = defineAction(
  { name: "api_key.approve", schema: apiKeyDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const { key, row } = await approveApiKey(await getDb(), staff, input.keyId, requestId);
    return { keyId: row.id, name: row.name, key };
  },
);

export const rejectApiKeyAction = defineAction(
  { name: "api_key.reject", schema: apiKeyDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await decideAgainstApiKey(await getDb(), staff, input.keyId, "rejected", requestId);
    return { keyId: input.keyId };
  },
);

export const cancelApiKeyAction = defineAction(
  { name: "api_key.cancel", schema: apiKeyDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await decideAgainstApiKey(await getDb(), staff, input.keyId, "cancelled", requestId);
    return { keyId: input.keyId };
  },
);

export const rollApiKeyAction = defineAction(
  { name: "api_key.roll", schema: rollApiKeySchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const row = await proposeApiKeyRoll(await getDb(), staff, input.keyId, requestId);
    return { keyId: row.id };
  },
);

export const revokeApiKeyAction = defineAction(
  { name: "api_key.revoke", schema: apiKeyDecisionSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await revokeApiKey(await getDb(), staff, input.keyId, requestId);
    return { keyId: input.keyId };
  },
);
