"use server";

import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { issueFingerprintToken, issuerFromStaff } from "@/lib/tokens";
import type { RestartSubmission } from "@/lib/tokens/restart-fields";
import { restartViewerOf, withRestartValues } from "@/lib/tokens/restart-values";
import { fingerprintTokenActionSchema, type FingerprintTokenActionInput } from "@/lib/validation/token-forms";

/** Issues a fingerprint token for the signed-in teller's branch (idempotent per form render). */
export const issueFingerprintTokenAction = defineAction(
  {
    name: "tokens.issue_fingerprint",
    schema: fingerprintTokenActionSchema,
    permission: "tokens.issue",
    // "New token for this customer": the details kept from the earlier token, filled in here.
    prepareInput: async (raw: FingerprintTokenActionInput & RestartSubmission, { staff, requestId }) =>
      withRestartValues(raw, "fingerprint", restartViewerOf(staff), requestId, { db: await getDb() }),
  },
  async ({ input, staff, requestId, log }) => issueFingerprintToken(input, issuerFromStaff(staff), requestId, { db: await getDb(), log }),
);
