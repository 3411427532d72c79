"use server";

import { defineAction } from "@/lib/actions";
import { issueFingerprintToken, issuerFromStaff } from "@/lib/tokens";
import { fingerprintTokenActionSchema } from "@/lib/validation";

/** Issues a fingerprint token for the signed-in teller's branch (idempotent per form render). */
export const issueFingerprintTokenAction = defineAction(
  { name: "tokens.issue_fingerprint", schema: fingerprintTokenActionSchema, permission: "tokens.issue" },
  async ({ input, staff, requestId, log }) => issueFingerprintToken(input, issuerFromStaff(staff), requestId, { log }),
);
