"use server";

import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { getPiiKeys } from "@/lib/pii";
import { revealIdNumberSchema } from "@/lib/review/reveal-schema";
import { revealIdNumber } from "@/lib/review/token-detail";

/** Shows a full ID number for a typed reason; the reveal and its reason go to the audit trail. */
export const revealIdNumberAction = defineAction(
  { name: "review.reveal_id_number", schema: revealIdNumberSchema, permission: "ids.reveal" },
  async ({ input, staff, scope, requestId }) => revealIdNumber(await getDb(), getPiiKeys(), { staff, scope, requestId }, input),
);
