"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isoInstantSchema } from "@/lib/validation/query-values";
import { wakeWebhookWorker } from "@/lib/webhooks/boot";
import {
  approveEndpoint,
  decideUrlChange,
  disableEndpoint,
  enableEndpoint,
  endpointInputSchema,
  proposeEndpoint,
  proposeUrlChange,
  recoverFailedSince,
  rejectEndpoint,
  resendDelivery,
  sendTestEvent,
  urlRulesFrom,
} from "@/lib/webhooks/endpoints";
import { approveSecretRotation, decideAgainstSecretRotation, DEFAULT_ROTATION_OVERLAP_HOURS, overlapHoursSchema, proposeSecretRotation } from "@/lib/webhooks/secret-rotations";

/**
 * Webhook endpoints (lib/webhooks). Adding one, or changing where one sends, is a grant of
 * customer outcomes: it waits for a second administrator (ADR 0020). A signing secret, a new
 * endpoint's or a rotated one, is made at the second administrator's approval and returned to
 * them alone (ADR 0052). Every step is audited by lib/webhooks.
 */

const endpointIdSchema = z.object({ endpointId: z.uuid() });

export const createWebhookEndpointAction = defineAction(
  { name: "webhooks.create", schema: endpointInputSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const endpoint = await proposeEndpoint(await getDb(), staff, input, urlRulesFrom(env()), new Date(), requestId);
    return { endpointId: endpoint.id };
  },
);

export const decideWebhookEndpointAction = defineAction(
  { name: "webhooks.decide", schema: endpointIdSchema.extend({ decision: z.enum(["approve", "reject"]) }), permission: "staff.manage" },
  async ({ input, staff, requestId }): Promise<{ decision: "approve"; url: string; secret: string } | { decision: "reject" }> => {
    if (input.decision === "reject") {
      await rejectEndpoint(await getDb(), staff, input.endpointId, new Date(), requestId);
      return { decision: "reject" };
    }
    const { endpoint, secret } = await approveEndpoint(await getDb(), staff, input.endpointId, new Date(), undefined, requestId);
    return { decision: "approve", url: endpoint.url, secret };
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

const rotationSchema = endpointIdSchema.extend({ rotationId: z.uuid() });

export const proposeSecretRotationAction = defineAction(
  { name: "webhooks.rotation_propose", schema: endpointIdSchema.extend({ overlapHours: overlapHoursSchema.default(DEFAULT_ROTATION_OVERLAP_HOURS) }), permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const rotation = await proposeSecretRotation(await getDb(), staff, input.endpointId, input.overlapHours, new Date(), requestId);
    return { rotationId: rotation.id };
  },
);

export const approveSecretRotationAction = defineAction(
  { name: "webhooks.rotation_approve", schema: rotationSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const { secret, previousValidUntil } = await approveSecretRotation(await getDb(), staff, input.endpointId, input.rotationId, new Date(), undefined, requestId);
    return { secret, previousValidUntil: previousValidUntil.toISOString() };
  },
);

export const rejectSecretRotationAction = defineAction(
  { name: "webhooks.rotation_reject", schema: rotationSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await decideAgainstSecretRotation(await getDb(), staff, input.endpointId, input.rotationId, "rejected", new Date(), requestId);
    return { rotationId: input.rotationId };
  },
);

export const cancelSecretRotationAction = defineAction(
  { name: "webhooks.rotation_cancel", schema: rotationSchema, permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    await decideAgainstSecretRotation(await getDb(), staff, input.endpointId, input.rotationId, "cancelled", new Date(), requestId);
    return { rotationId: input.rotationId };
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
  { name: "webhooks.recover", schema: endpointIdSchema.extend({ since: isoInstantSchema }), permission: "staff.manage" },
  async ({ input, staff, requestId }) => {
    const recovered = await recoverFailedSince(await getDb(), staff, input.endpointId, new Date(input.since), new Date(), requestId);
    wakeWebhookWorker();
    return { recovered };
  },
);
