"use server";

import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { attachSmsTokenActionDefinition, attachTokenFromSms } from "@/lib/tokens";

/**
 * Gives an issuing attempt whose answer never came the token the customer received by SMS, after
 * the service confirms it is a pending token that can be this attempt's (ADRs 0017, 0037). A
 * supervisor of the branch (head office: any), never the attempt's issuer; audited with both names.
 */
export const attachSmsTokenAction = defineAction(
  attachSmsTokenActionDefinition,
  async ({ input, staff, scope, requestId }) =>
    attachTokenFromSms(input, { userId: staff.userId, username: staff.username, scope }, requestId, { db: await getDb() }),
);
