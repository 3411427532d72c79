import { z } from "zod";
import { TOKEN_KINDS } from "@/lib/domain/token-kinds";
import { SHARED_REFERENCE_DESCRIPTION } from "./reference";

/**
 * The webhook payloads Veridesk sends, as zod schemas: the worker builds bodies that pass them,
 * the tests check every delivery against them, and the OpenAPI document (lib/api) includes them.
 * Every body is `{ type, timestamp, data }` (Standard Webhooks); never an ID number or a phone.
 */

export const WEBHOOK_EVENT_TYPES = ["token.finished", "webhook.test"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The events an endpoint subscribes to; `webhook.test` is sent on request to any endpoint. */
export const SUBSCRIBABLE_EVENT_TYPES = ["token.finished"] as const;

export const WEBHOOK_FINAL_STATES = ["successful", "failed", "expired", "invalid", "outcome_unknown"] as const;

export const tokenFinishedDataSchema = z
  .object({
    id: z.uuid().describe("The token request's id, as the API answers it."),
    reference: z.string().nullable().describe(SHARED_REFERENCE_DESCRIPTION),
    kind: z.enum(TOKEN_KINDS),
    branch: z.string().describe("The branch's code."),
    state: z.enum(WEBHOOK_FINAL_STATES).describe("The final state."),
    result: z
      .object({
        status: z.enum(["SUCCESSFUL", "FAILED"]),
        transaction_number: z.string(),
        error: z.string().nullable().describe("The service's text when it failed."),
      })
      .nullable()
      .describe("The verification service's result, when one came."),
    issued_at: z.iso.datetime({ offset: true }).nullable(),
    expires_at: z.iso.datetime({ offset: true }).nullable(),
    finished_at: z.iso.datetime({ offset: true }),
  })
  .strict();

export const tokenFinishedWebhookSchema = z
  .object({
    type: z.literal("token.finished"),
    timestamp: z.iso.datetime({ offset: true }).describe("When the token reached its final state."),
    data: tokenFinishedDataSchema,
  })
  .strict()
  .meta({ id: "TokenFinishedWebhook", description: "Sent once per token when it reaches its final state (at least once: dedupe on webhook-id)." });

export const webhookTestWebhookSchema = z
  .object({
    type: z.literal("webhook.test"),
    timestamp: z.iso.datetime({ offset: true }),
    data: z.object({ endpoint_id: z.uuid(), requested_by: z.string() }).strict(),
  })
  .strict()
  .meta({ id: "WebhookTestWebhook", description: "Sent when an administrator asks for a test delivery." });

export type TokenFinishedWebhook = z.infer<typeof tokenFinishedWebhookSchema>;
export type WebhookTestWebhook = z.infer<typeof webhookTestWebhookSchema>;

/** Every payload, by event type: the OpenAPI document's `webhooks` section. */
export const webhookPayloadSchemas = {
  "token.finished": tokenFinishedWebhookSchema,
  "webhook.test": webhookTestWebhookSchema,
} as const;
