import { staffRoute } from "@/lib/auth/route";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { liveViewSettings } from "@/lib/watcher/live-settings";
import { listTodayTokens } from "@/lib/watcher/live-token-view";
import { noteTokensViewed } from "@/lib/watcher/viewers";

export const dynamic = "force-dynamic";

/**
 * GET /api/tokens?scope=today: the dashboard's one polling request — today's tokens of the
 * viewer's branch (all branches for head office), the viewer's own first, each with its live state.
 * The viewer's own open tokens count as watched (a head-office dashboard showing every branch
 * must not put every token in the country on the fast cadence; ADR 0017).
 */
export const GET = staffRoute({ permission: "tokens.view", countsAsActivity: false }, async ({ request, staff, scope }) => {
  const requested = new URL(request.url).searchParams.get("scope") ?? "today";
  if (requested !== "today") {
    throw new AppError("VALIDATION", `unknown token list scope "${requested}"`, { fieldErrors: { scope: ['Only "today" is offered.'] } });
  }
  const body = await listTodayTokens(await getDb(), { userId: staff.userId, scope }, liveViewSettings());
  noteTokensViewed(body.tokens.filter((token) => token.isMine && !token.isFinal).map((token) => token.id));
  return Response.json(body, { headers: { "cache-control": "no-store" } });
});
