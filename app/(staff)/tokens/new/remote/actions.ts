"use server";

import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { issueRemoteToken, issuerFromStaff } from "@/lib/tokens";
import type { RestartSubmission } from "@/lib/tokens/restart-fields";
import { restartViewerOf, withRestartValues } from "@/lib/tokens/restart-values";
import { remoteTokenActionSchema, type RemoteTokenActionInput } from "@/lib/validation/token-forms";

/** Issues a remote token (link by SMS and/or e-mail) for the signed-in teller's branch. */
export const issueRemoteTokenAction = defineAction(
  {
    name: "tokens.issue_remote",
    schema: remoteTokenActionSchema,
    permission: "tokens.issue",
    // "New token for this customer": the details kept from the earlier token, filled in here.
    prepareInput: async (raw: RemoteTokenActionInput & RestartSubmission, { staff, requestId }) => withRestartValues(raw, "remote", restartViewerOf(staff), requestId, { db: await getDb() }),
  },
  async ({ input, staff, requestId, log }) => issueRemoteToken(input, issuerFromStaff(staff), requestId, { db: await getDb(), log }),
);
