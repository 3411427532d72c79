"use server";

import { defineAction } from "@/lib/actions";
import { placeLegalHold, releaseLegalHold } from "@/lib/review/customer-record";
import { legalHoldSchema } from "@/lib/review/customer-record-schema";
import { getDb } from "@/lib/db/client";
import { getPiiKeys } from "@/lib/pii";
import { revealIdNumberSchema } from "@/lib/review/reveal-schema";
import { revealIdNumber } from "@/lib/review/token-detail";

/** Shows a full ID number for a typed reason; the reveal and its reason go to the audit trail. */
export const revealIdNumberAction = defineAction(
  { name: "review.reveal_id_number", schema: revealIdNumberSchema, permission: "ids.reveal" },
  async ({ input, staff, scope, requestId }) => revealIdNumber(await getDb(), getPiiKeys(), { staff, scope, requestId }, input),
);

/** Places a legal hold on the token (ADR 0022): exempt from any erasure until released. Audited with the reason. */
export const placeLegalHoldAction = defineAction(
  { name: "token.legal_hold_place", schema: legalHoldSchema, permission: "customers.records" },
  async ({ input, staff, scope, requestId }) => {
    await placeLegalHold(await getDb(), { staff, scope, requestId }, input);
    return { held: true };
  },
);

/** Releases the token's legal hold, with a reason; audited. */
export const releaseLegalHoldAction = defineAction(
  { name: "token.legal_hold_release", schema: legalHoldSchema, permission: "customers.records" },
  async ({ input, staff, scope, requestId }) => {
    await releaseLegalHold(await getDb(), { staff, scope, requestId }, input);
    return { held: false };
  },
);
