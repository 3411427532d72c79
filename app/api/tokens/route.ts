import { staffRoute } from "@/lib/auth/route";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { liveViewSettings } from "@/lib/watcher/live-settings";
import { listTodayTokens } from "@/lib/watcher/live-token-view";

export const dynamic = "force-dynamic";

/**
 * GET /api/tokens?scope=today: the dashboard's one polling request — today's tokens of the
 * viewer's branch (all branches for head office), the viewer's own first, each with its live state.
 */
export const GET = staffRoute({ permission: "tokens.view", countsAsActivity: false }, async ({ request, staff, scope }) => {
  const requested = new URL(request.url).searchParams.get("scope") ?? "today";
  if (requested !== "today") {
    throw new AppError("VALIDATION", `unknown token list scope "${requested}"`, { fieldErrors: { scope: ['Only "today" is offered.'] } });
  }
  const body = await listTodayTokens(await getDb(), { userId: staff.userId, scope }, liveViewSettings());
  return Response.json(body, { headers: { "cache-control": "no-store" } });
});
