"use server";

import { defineAction } from "@/lib/actions";
import { createPurpose as createPurposeRecord, updatePurpose as updatePurposeRecord } from "@/lib/compliance/purposes";
import { createPurposeSchema, updatePurposeSchema } from "@/lib/compliance/purpose-schemas";
import { getDb } from "@/lib/db/client";

export const createPurposeAction = defineAction(
  { name: "purpose.create", schema: createPurposeSchema, permission: "compliance.manage" },
  async ({ input, staff, requestId }) => {
    const purpose = await createPurposeRecord(await getDb(), { userId: staff.userId, username: staff.username }, input, requestId);
    return { purposeId: purpose.id };
  },
);

export const updatePurposeAction = defineAction(
  { name: "purpose.update", schema: updatePurposeSchema, permission: "compliance.manage" },
  async ({ input, staff, requestId }) => {
    const purpose = await updatePurposeRecord(await getDb(), { userId: staff.userId, username: staff.username }, input, requestId);
    return { purposeId: purpose.id };
  },
);
