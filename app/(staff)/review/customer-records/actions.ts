"use server";

import { defineAction } from "@/lib/actions";
import { eraseCustomerDataOnRequest, produceCustomerRecord } from "@/lib/review/customer-record";
import { customerErasureRequestSchema, customerRecordRequestSchema } from "@/lib/review/customer-record-schema";
import { retentionSettingsFrom } from "@/lib/compliance/retention-job";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { getPiiKeys } from "@/lib/pii";

/** The record of verifications held for an ID number (POSTed, never in a URL), with a reason; audited. */
export const produceCustomerRecordAction = defineAction(
  { name: "customer.produce_record", schema: customerRecordRequestSchema, permission: "customers.records" },
  async ({ input, staff, scope, requestId }) => produceCustomerRecord(await getDb(), getPiiKeys(), retentionSettingsFrom(env()), { staff, scope, requestId }, input),
);

/** Erasure at the customer's request, with a reason; refused while a legal hold or the AML minimum applies. */
export const eraseOnRequestAction = defineAction(
  { name: "customer.erase_on_request", schema: customerErasureRequestSchema, permission: "customers.records" },
  async ({ input, staff, scope, requestId }) => eraseCustomerDataOnRequest(await getDb(), getPiiKeys(), { staff, scope, requestId }, input),
);
