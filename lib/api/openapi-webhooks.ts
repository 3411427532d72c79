import type { ZodOpenApiPathsObject } from "zod-openapi";
import { webhookPayloadSchemas } from "@/lib/webhooks/schemas";

/**
 * The webhooks' payloads in the OpenAPI document (its `webhooks` section): one entry per event,
 * its body the zod schema the sender builds and the tests check deliveries with
 * (lib/webhooks/schemas.ts). A new event added to `webhookPayloadSchemas` appears here by itself;
 * anything more (headers, answers) is added below without touching the API's own paths.
 */

const signatureHeaders = {
  "webhook-id": { description: "The delivery's id (`msg_…`), the same on every attempt: dedupe on it.", required: true, schema: { type: "string" as const } },
  "webhook-timestamp": { description: "Seconds since the epoch when this attempt was signed.", required: true, schema: { type: "string" as const } },
  "webhook-signature": { description: "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` (Standard Webhooks); during a secret rotation, one per secret.", required: true, schema: { type: "string" as const } },
};

export const apiWebhooks: ZodOpenApiPathsObject = Object.fromEntries(
  Object.entries(webhookPayloadSchemas).map(([event, schema]) => [
    event,
    {
      post: {
        operationId: `webhook_${event.replace(/\W/g, "_")}`,
        summary: event,
        description: "Sent to each endpoint subscribed to the event, signed per the Standard Webhooks specification. Verify with the raw body; answer 2xx quickly.",
        tags: ["Webhooks"],
        security: [],
        parameters: Object.entries(signatureHeaders).map(([name, header]) => ({ in: "header" as const, name, ...header })),
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: {
          "200": { description: "Received (any 2xx). A 410 disables the endpoint; anything else is retried with back-off for about three days." },
          "400": { description: "Refused (e.g. the signature did not verify): retried like any failure." },
        },
      },
    },
  ]),
);
