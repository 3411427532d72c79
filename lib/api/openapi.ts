import { createDocument, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { z } from "zod";
import { apiWebhooks } from "./openapi-webhooks";
import { problemSchema, purposeListSchema, tokenCreateRequestSchema, tokenCreatedSchema, tokenIdParamsSchema, tokenListQuerySchema, tokenListSchema, tokenSchema } from "./schemas";

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the zod schemas the routes parse and answer
 * with (schemas.ts). Served at /api/v1/openapi.json, rendered at /api/v1/docs, linted by
 * scripts/openapi-lint.ts (redocly), and the route tests check every
 * answer against it. Webhook payloads come from openapi-webhooks.ts (or `extraWebhooks`).
 */

const problem = (description: string) => ({ description, content: { "application/problem+json": { schema: problemSchema } } });

const retryAfterHeader = {
  "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" as const } },
};

const commonProblems: ZodOpenApiResponsesObject = {
  "401": problem("The key is missing, malformed (its checksum is wrong), unknown, expired or revoked."),
  "403": problem("The key lacks the scope, or may not act for the branch."),
  "429": { ...problem("Over the key's requests per minute."), headers: retryAfterHeader },
  "500": problem("Something failed inside Veridesk."),
};

const idempotencyKeyParameter = z
  .string()
  .min(1)
  .max(255)
  .meta({
    description:
      "A unique value per new token (e.g. a UUID). The same key with the same body answers the first answer again without issuing twice; with another body 422; while the first request runs 409. Kept 24 hours per integration.",
  });

const paths: ZodOpenApiPathsObject = {
  "/api/v1/tokens": {
    post: {
      operationId: "createToken",
      summary: "Issue a token",
      description:
        "Issues a fingerprint or remote token for one of the key's branches, under the bank's purpose policy and the customer's consent, exactly as the counter's forms do. Needs `tokens:write`.",
      tags: ["Tokens"],
      security: [{ apiKey: ["tokens:write"] }],
      requestParams: { header: z.object({ "Idempotency-Key": idempotencyKeyParameter }) },
      requestBody: { required: true, content: { "application/json": { schema: tokenCreateRequestSchema } } },
      responses: {
        "201": {
          description: "Issued (or, for a repeated Idempotency-Key, the first answer again, with `Idempotent-Replayed: true`).",
          headers: {
            Location: { description: "The token's URL.", schema: { type: "string" } },
            "Idempotent-Replayed": { description: "`true` when this is the stored answer of an earlier request.", schema: { type: "string" } },
          },
          content: { "application/json": { schema: tokenCreatedSchema } },
        },
        "400": problem("No or a malformed Idempotency-Key, or a body that is not JSON."),
        ...commonProblems,
        "409": { ...problem("A request with this Idempotency-Key is still running (REQUEST_IN_PROGRESS), or the customer has an open token (CONFLICT)."), headers: retryAfterHeader },
        "422": problem("A field is refused (VALIDATION, with `errors`), the service refused the request, or the Idempotency-Key was used with another body (IDEMPOTENCY_KEY_REUSED)."),
        "502": problem("The service failed; for UPSTREAM_CONNECTION_LOST and UPSTREAM_BAD_RESPONSE a token may exist (`GET /api/v1/tokens?reference=`)."),
        "503": problem("The service cannot be reached or asked us to slow down: nothing was issued."),
        "504": problem("The service did not answer in time: a token may exist."),
      },
    },
    get: {
      operationId: "listTokens",
      summary: "Find tokens",
      description: "This integration's tokens of the key's branches, newest first. Needs `tokens:read`.",
      tags: ["Tokens"],
      security: [{ apiKey: ["tokens:read"] }],
      requestParams: { query: tokenListQuerySchema },
      responses: {
        "200": { description: "The tokens.", content: { "application/json": { schema: tokenListSchema } } },
        ...commonProblems,
        "422": problem("A query value is refused."),
      },
    },
  },
  "/api/v1/tokens/{id}": {
    get: {
      operationId: "getToken",
      summary: "A token's state and result",
      description: "Never a full ID number or phone number. Needs `tokens:read`.",
      tags: ["Tokens"],
      security: [{ apiKey: ["tokens:read"] }],
      requestParams: { path: tokenIdParamsSchema },
      responses: {
        "200": { description: "The token.", content: { "application/json": { schema: tokenSchema } } },
        ...commonProblems,
        "404": problem("No such token for this key (another branch's or integration's token answers the same)."),
      },
    },
  },
  "/api/v1/purposes": {
    get: {
      operationId: "listPurposes",
      summary: "Purposes and the consent wording",
      description: "The purposes a token may be issued for (with the kinds and ID types each allows), and the consent wording in force. Needs `tokens:read`.",
      tags: ["Purposes"],
      security: [{ apiKey: ["tokens:read"] }],
      responses: {
        "200": { description: "The purposes.", content: { "application/json": { schema: purposeListSchema } } },
        ...commonProblems,
      },
    },
  },
};

export function buildOpenApiDocument(options: { serverUrl?: string; extraWebhooks?: ZodOpenApiPathsObject } = {}) {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Veridesk API",
      version: "1.0.0",
      description:
        "Issue and follow identity-verification tokens from the bank's own systems. Send the key as `Authorization: Bearer vdk_live_…`. Errors are RFC 9457 problem details. See docs/api.md for the limits and guarantees.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: options.serverUrl ?? "/", description: "This Veridesk" }],
    security: [{ apiKey: [] }],
    tags: [
      { name: "Tokens", description: "Issue tokens and read their state and result." },
      { name: "Purposes", description: "What a token may be issued for." },
      { name: "Webhooks", description: "What Veridesk sends to the bank's endpoints (docs/webhooks.md)." },
    ],
    paths,
    webhooks: { ...apiWebhooks, ...options.extraWebhooks },
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", bearerFormat: "vdk_live_… / vdk_test_…", description: "An API key made by two administrators (or `npm run api-key:create`)." },
      },
    },
  });
}
