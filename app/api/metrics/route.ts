import { timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { metrics } from "@/lib/metrics";

export const dynamic = "force-dynamic";

const notFound = () => Response.json({ error: { code: "NOT_FOUND", message: "Not found." } }, { status: 404, headers: { "cache-control": "no-store" } });

/**
 * GET /api/metrics: this instance's Prometheus metrics (lib/metrics; names in docs/operations.md).
 * No staff session: Prometheus presents `Authorization: Bearer <METRICS_TOKEN>`, compared in
 * constant time. Without METRICS_TOKEN the route does not exist (404); a missing or wrong token
 * gets 401 and nothing else. Counts and durations only — no token, id or customer datum.
 */
export async function GET(request: Request): Promise<Response> {
  const expected = env().METRICS_TOKEN;
  if (!expected) return notFound();
  const presented = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!isSameSecret(presented, expected)) {
    return Response.json(
      { error: { code: "UNAUTHORIZED", message: "A metrics token is required." } },
      { status: 401, headers: { "cache-control": "no-store", "www-authenticate": 'Bearer realm="veridesk-metrics"' } },
    );
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}

function isSameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
