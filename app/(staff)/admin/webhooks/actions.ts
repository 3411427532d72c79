"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { wakeWebhookWorker } from "@/lib/webhooks/boot";
import {
  approveEndpoint,
  decideUrlChange,
  DEFAULT_ROTATION_OVERLAP_HOURS,
  disableEndpoint,
  enableEndpoint,
  endpointInputSchema,
  proposeEndpoint,
  proposeUrlChange,
  recoverFailedSince,
  rejectEndpoint,
  resendDelivery,
  rotateSecret,
  sendTestEvent,
  urlRulesFrom,
} from "@/lib/webhooks/endpoints";

/**
 * Webhook endpoints (lib/webhooks). Adding one, or changing where one sends, is a grant of
 * customer outcomes: it waits for a second administrator (ADR 0020). Every step is audited by lib/webhooks.
 */

const endpointIdSchema = z.object({ endpointId: z.uuid() });

export const createWebhookEndpointAction = defineAction(
  { name: "webhooks.create", schema: endpointInputSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const { endpoint, secret } = await proposeEndpoint(await getDb(), staff, input, urlRulesFrom(env()), new Date(), undefined, requestId);
    return { endpointId: endpoint.id, secret };
  },
);

export const decideWebhookEndpointAction = defineAction(
  { name: "webhooks.decide", schema: endpointIdSchema.extend({ decision: z.enum(["approve", "reject"]) }), permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    if (input.decision === "approve") await approveEndpoint(await getDb(), staff, input.endpointId, new Date(), requestId);
    else await rejectEndpoint(await getDb(), staff, input.endpointId, new Date(), requestId);
    return { decision: input.decision };
  },
);

export const proposeWebhookUrlAction = defineAction(
  { name: "webhooks.propose_url", schema: endpointIdSchema.extend({ url: z.string() }), permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await proposeUrlChange(await getDb(), staff, input.endpointId, input.url.trim(), urlRulesFrom(env()), new Date(), requestId);
    return { proposedUrl: input.url.trim() };
  },
);

export const decideWebhookUrlAction = defineAction(
  { name: "webhooks.decide_url", schema: endpointIdSchema.extend({ decision: z.enum(["approve", "reject"]), url: z.string() }), permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await decideUrlChange(await getDb(), staff, input.endpointId, input.decision, input.url, urlRulesFrom(env()), requestId);
    return { decision: input.decision };
  },
);

export const sendWebhookTestAction = defineAction(
  { name: "webhooks.test", schema: endpointIdSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const deliveryId = await sendTestEvent(await getDb(), staff, input.endpointId, new Date(), requestId);
    wakeWebhookWorker();
    return { deliveryId };
  },
);

export const rotateWebhookSecretAction = defineAction(
  {
    name: "webhooks.rotate",
    schema: endpointIdSchema.extend({ overlapHours: z.coerce.number().int().min(0).max(24 * 14).default(DEFAULT_ROTATION_OVERLAP_HOURS) }),
    permission: "staff.manage",
  },
  async ({ input, staff, requestId }) => {
    const { secret, previousValidUntil } = await rotateSecret(await getDb(), staff, input.endpointId, input.overlapHours, new Date(), undefined, requestId);
    return { secret, previousValidUntil: previousValidUntil.toISOString() };
  },
);

export const setWebhookEndpointEnabledAction = defineAction(
  { name: "webhooks.set_enabled", schema: endpointIdSchema.extend({ isEnabled: z.boolean() }), permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    if (input.isEnabled) await enableEndpoint(await getDb(), staff, input.endpointId, new Date(), requestId);
    else await disableEndpoint(await getDb(), staff, input.endpointId, new Date(), requestId);
    if (input.isEnabled) wakeWebhookWorker();
    return { isEnabled: input.isEnabled };
  },
);

export const resendWebhookDeliveryAction = defineAction(
  { name: "webhooks.resend", schema: z.object({ deliveryId: z.uuid() }), permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await resendDelivery(await getDb(), staff, input.deliveryId, new Date(), requestId);
    wakeWebhookWorker();
    return { deliveryId: input.deliveryId };
  },
);

export const recoverWebhookDeliveriesAction = defineAction(
  { name: "webhooks.recover", schema: endpointIdSchema.extend({ since: z.iso.datetime({ offset: true }) }), permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const recovered = await recoverFailedSince(await getDb(), staff, input.endpointId, new Date(input.since), new Date(), requestId);
    wakeWebhookWorker();
    return { recovered };
  },
);
