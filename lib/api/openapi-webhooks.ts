import type { ZodOpenApiPathsObject } from "zod-openapi";

/**
 * The webhooks' payloads in the OpenAPI document (its `webhooks` section): one entry per event,
 * e.g. `"token.finished": { post: { requestBody: { content: { "application/json": { schema } } },
 * responses: { "200": { description: "…" } } } }`, the schema being the zod schema the sender
 * builds the payload with (lib/webhooks). Kept apart from openapi.ts so the webhooks add theirs
 * here without touching the API's own paths.
 */
export const apiWebhooks: ZodOpenApiPathsObject = {};
