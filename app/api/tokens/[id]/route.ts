import { staffRoute } from "@/lib/auth/route";
import { getDb } from "@/lib/db/client";
import { liveViewSettings } from "@/lib/watcher/live-settings";
import { getLiveToken } from "@/lib/watcher/live-token-view";
import { noteTokensViewed } from "@/lib/watcher/viewers";

// Customer data, polled every few seconds: always from the database, never cached anywhere.
export const dynamic = "force-dynamic";

/**
 * GET /api/tokens/[id]: the live token's DTO for the token page's polling. Reads the database only
 * (the watcher is the one that asks the service), so any number of viewers costs the service
 * nothing. Signed out → 401; a role without `tokens.view` → 403; another branch's token → 404.
 * Polling does not count as activity for the idle timeout. An open token polled here counts as
 * watched, so the watcher asks the service about it at the watched cadence (ADR 0017).
 */
export const GET = staffRoute<Promise<{ id: string }>>(
  { permission: "tokens.view", countsAsActivity: false },
  async ({ staff, scope, params }) => {
    const { id } = await params;
    const body = await getLiveToken(await getDb(), { userId: staff.userId, scope }, id, liveViewSettings());
    if (!body.token.isFinal) noteTokensViewed([body.token.id]);
    return Response.json(body, { headers: { "cache-control": "no-store" } });
  },
);
