"use server";

import { defineAction } from "@/lib/actions";
import { consentWordingInputSchema, publishConsentWording } from "@/lib/compliance/consent";
import { getDb } from "@/lib/db/client";

/** Publishes a new consent wording as the next version, audited with the text. */
export const publishConsentWordingAction = defineAction(
  { name: "consent.wording_publish", schema: consentWordingInputSchema, permission: "compliance.manage" },
  async ({ input, staff, requestId }) => {
    const published = await publishConsentWording(await getDb(), { userId: staff.userId, username: staff.username }, input.text, requestId);
    return { version: published.version };
  },
);
