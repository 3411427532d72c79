"use server";

import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { getPiiKeys } from "@/lib/pii";
import { REVIEW_PERMISSION } from "@/lib/review/access";
import { idNumberSearchSchema } from "@/lib/review/id-search-schema";
import { searchTokensByIdNumber } from "@/lib/review/id-search";

/** Exact search by ID number: a POST, so the number never enters a URL (ADR 0011). */
export const searchByIdNumberAction = defineAction(
  { name: "review.search_id_number", schema: idNumberSearchSchema, permission: REVIEW_PERMISSION },
  async ({ input, staff, scope, requestId }) => searchTokensByIdNumber(await getDb(), getPiiKeys(), { staff, scope, requestId }, input),
);
