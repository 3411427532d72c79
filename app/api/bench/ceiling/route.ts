import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

const CEILING_BODY = JSON.stringify({ ok: true, serverNow: "2026-01-01T00:00:00.000Z", tokens: [] });

/**
 * GET /api/bench/ceiling: the framework's ceiling for `npm run bench:http` — a route
 * handler answering constant JSON with no session, no database. Answers 404 unless the
 * bench-only setting BENCH_CEILING_ROUTE is on, which production refuses at boot (lib/env.ts).
 */
export function GET(): Response {
  if (!env().BENCH_CEILING_ROUTE) {
    return Response.json({ error: { code: "NOT_FOUND", message: "Not found." } }, { status: 404, headers: { "cache-control": "no-store" } });
  }
  return new Response(CEILING_BODY, { headers: { "content-type": "application/json", "cache-control": "no-store" } });
}
