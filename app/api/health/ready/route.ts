import { checkReadiness } from "@/lib/server/readiness";

export const dynamic = "force-dynamic";

/**
 * GET /api/health/ready: whether this instance should be sent work (lib/server/readiness.ts).
 * 200 when ready, 503 with the failing checks named otherwise. No session needed; nothing
 * sensitive in the answer (states and counts, never a URL, key or customer datum).
 */
export async function GET(): Promise<Response> {
  const readiness = await checkReadiness();
  return Response.json({ status: readiness.ok ? "ready" : "not ready", ...readiness }, { status: readiness.ok ? 200 : 503, headers: { "cache-control": "no-store" } });
}
