export const dynamic = "force-dynamic";

/**
 * GET /api/health/live: the process is up and answering (ADR 0024). No session, no database:
 * a balancer or orchestrator restarts an instance only when this fails; whether to send it work
 * is /api/health/ready's question.
 */
export function GET(): Response {
  return Response.json({ status: "live" }, { headers: { "cache-control": "no-store" } });
}
