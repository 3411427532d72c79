import { isOwnSiteNavigation } from "@/lib/auth/request-origin";
import { staffRoute } from "@/lib/auth/route";
import { getDb } from "@/lib/db/client";
import { liveViewSettings } from "@/lib/live/settings";
import { getLiveTokenIfChanged } from "@/lib/live/token-detail";
import { noteTokensViewed } from "@/lib/watcher/viewers";

// Customer data, polled every few seconds: always from the database, never cached anywhere.
export const dynamic = "force-dynamic";

/**
 * GET /api/tokens/[id]: the live token's DTO for the token page's polling. Reads the database only
 * (the watcher is the one that asks the service), so any number of viewers costs the service
 * nothing. Signed out → 401; a role without `tokens.view` → 403; another branch's token → 404.
 * Polling does not count as activity for the idle timeout. An open token polled here counts as
 * watched, so the watcher asks the service about it at the watched cadence (ADR 0017).
 * Conditional (ADR 0026): `If-None-Match` with the ETag of the last answer gets a 304 when nothing
 * the page shows changed; `X-Server-Now` carries the server's clock on every answer.
 */
export const GET = staffRoute<Promise<{ id: string }>>(
  { permission: "tokens.view", countsAsActivity: false, timedAs: "token" },
  async ({ request, staff, scope, params }) => {
    const { id } = await params;
    const now = new Date();
    const answer = await getLiveTokenIfChanged(await getDb(), { userId: staff.userId, scope }, id, liveViewSettings(), request.headers.get("if-none-match"), now);
    const headers = { "cache-control": "no-store", etag: answer.etag, "x-server-now": now.toISOString() };
    // The token page's own polls count it as watched; another site's link (a GET) writes nothing.
    const isWatched = isOwnSiteNavigation(request.headers);
    if (answer.status === 304) {
      // Still open (a final token's answer never changes by time alone; its page stops polling).
      if (isWatched) noteTokensViewed([id]);
      return new Response(null, { status: 304, headers });
    }
    if (isWatched && !answer.body.token.isFinal) noteTokensViewed([answer.body.token.id]);
    return Response.json(answer.body, { headers });
  },
);
