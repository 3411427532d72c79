import { isOwnSiteNavigation } from "@/lib/auth/request-origin";
import { staffRoute } from "@/lib/auth/route";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { liveViewSettings } from "@/lib/live/settings";
import { listTodayTokensSince } from "@/lib/live/today-list";
import { noteTokensViewed } from "@/lib/watcher/viewers";

export const dynamic = "force-dynamic";

/**
 * GET /api/tokens?scope=today: the dashboard's one polling request — today's tokens of the
 * viewer's branch (all branches for head office), the viewer's own first, each with its live state.
 * The viewer's own open tokens count as watched (a head-office dashboard showing every branch
 * must not put every token in the country on the fast cadence; ADR 0017).
 * `watch=0`: the same list for the result notifier on other pages, counting nothing as watched.
 * Changes only (ADR 0026): `since=<version>` (or `If-None-Match`) of the last answer gets a 304 when
 * nothing changed, or only the changed tokens and the order of all (lib/live/today-delta.ts).
 * An unchanged list's 304 reads no row into the app: a fingerprint of the rows decides (ADR 0031).
 */
export const GET = staffRoute({ permission: "tokens.view", countsAsActivity: false, timedAs: "today" }, async ({ request, staff, scope }) => {
  const requested = new URL(request.url).searchParams.get("scope") ?? "today";
  if (requested !== "today") {
    throw new AppError("VALIDATION", `unknown token list scope "${requested}"`, { fieldErrors: { scope: ['Only "today" is offered.'] } });
  }
  const params = new URL(request.url).searchParams;
  const since = params.get("since") ?? request.headers.get("if-none-match")?.trim().replace(/^W\//, "").replace(/^"|"$/g, "") ?? null;
  if (since !== null && !/^[A-Za-z0-9_-]{1,64}$/.test(since)) {
    throw new AppError("VALIDATION", "malformed list version", { fieldErrors: { since: ["Not a list version."] } });
  }
  // watch=0: the result notifier on another page; its polls must not speed the watcher up (ADR 0017).
  const watch = params.get("watch");
  if (watch !== null && watch !== "0") {
    throw new AppError("VALIDATION", "malformed watch flag", { fieldErrors: { watch: ['Only "0" is offered.'] } });
  }
  const now = new Date();
  const answer = await listTodayTokensSince(await getDb(), { userId: staff.userId, scope }, liveViewSettings(), since, now);
  const headers = { "cache-control": "no-store", etag: answer.etag, "x-server-now": now.toISOString() };
  if (answer.status === 304) return new Response(null, { status: 304, headers });
  const listed = "tokens" in answer.body ? answer.body.tokens : answer.body.changed;
  // Unchanged open tokens were noted by the poll that last sent them; the watcher's view lasts
  // longer than a poll interval (viewers.ts), and every changed one is noted again here. Not for
  // another site's link: a GET it causes writes nothing.
  if (watch === null && isOwnSiteNavigation(request.headers)) noteTokensViewed(listed.filter((token) => token.isMine && !token.isFinal).map((token) => token.id));
  return Response.json(answer.body, { headers });
});
