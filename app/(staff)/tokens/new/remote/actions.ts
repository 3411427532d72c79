"use server";

import { defineAction } from "@/lib/actions";
import { issueRemoteToken, issuerFromStaff } from "@/lib/tokens";
import { remoteTokenActionSchema } from "@/lib/validation";

/** Issues a remote token (link by SMS and/or e-mail) for the signed-in teller's branch. */
export const issueRemoteTokenAction = defineAction(
  { name: "tokens.issue_remote", schema: remoteTokenActionSchema, permission: "tokens.issue" },
  async ({ input, staff, requestId, log }) => issueRemoteToken(input, issuerFromStaff(staff), requestId, { log }),
);
