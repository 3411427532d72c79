"use server";

import { defineAction } from "@/lib/actions";
import { attachTokenFromSms } from "@/lib/tokens";
import { attachSmsTokenSchema } from "@/lib/validation";

/**
 * Gives an issuing attempt whose answer never came the token the customer received by SMS, after
 * the service confirms it knows the token (ADR 0017). Teller or supervisor, own branch (head
 * office: any); audited.
 */
export const attachSmsTokenAction = defineAction(
  { name: "tokens.attach_sms_token", schema: attachSmsTokenSchema, permission: "tokens.recover" },
  async ({ input, staff, scope, requestId }) =>
    attachTokenFromSms(input, { userId: staff.userId, username: staff.username, scope }, requestId),
);
