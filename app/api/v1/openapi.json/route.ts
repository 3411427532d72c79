import { buildOpenApiDocument } from "@/lib/api/openapi";

/** The OpenAPI 3.1 document, generated from the routes' own zod schemas (lib/api/openapi.ts). Public: it holds no data. */

export function GET(): Response {
  return Response.json(buildOpenApiDocument(), { headers: { "cache-control": "private, max-age=300" } });
}
