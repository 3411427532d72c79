import "server-only";
import { env } from "@/lib/env";

/**
 * Whether a request comes from Veridesk's own pages, for the routes a cross-site page must not
 * be able to make a signed-in browser run (the CSV exports: the session cookie is SameSite=Lax,
 * which still rides along on a top-level GET navigation from another site).
 *
 * - `Sec-Fetch-Site` (sent by every current browser) must be `same-origin`, or `none` for a
 *   navigation the user made themselves (a bookmark, the address bar).
 * - `Origin`, when present, must be Veridesk's own: APP_URL's origin when set (always in
 *   production), otherwise the origin the request itself was addressed to — never a guessed
 *   `http://localhost:PORT`, which refused the real origin of a local run reached another way.
 * - `requiresBrowserProof`: a POST with neither header is refused (browsers send at least one).
 */
export function isOwnOriginRequest(request: Request, options: { requiresBrowserProof?: boolean } = {}): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite !== null && fetchSite !== "same-origin" && fetchSite !== "none") return false;
  // Under `Referrer-Policy: no-referrer` a browser's own form POST says `Origin: null`: that tells
  // nothing either way, so Sec-Fetch-Site decides.
  const rawOrigin = request.headers.get("origin");
  const origin = rawOrigin === "null" ? null : rawOrigin;
  if (origin !== null && origin !== expectedOrigin(request)) return false;
  if (options.requiresBrowserProof && fetchSite === null && origin === null) return false;
  return true;
}

/**
 * Whether a page or GET route was reached from Veridesk itself (one of its links or fetches, the
 * address bar, a bookmark) rather than from another site's link. A GET must not write because of
 * another site: pages whose opening is recorded (a supervisor's view of a token) ask this first,
 * and on another site's link show only a link back into Veridesk, reading and recording nothing.
 * No `Sec-Fetch-Site` at all is not a browser's cross-site navigation (scripts, old browsers).
 */
export function isOwnSiteNavigation(headers: { get(name: string): string | null }): boolean {
  const fetchSite = headers.get("sec-fetch-site");
  return fetchSite === null || fetchSite === "same-origin" || fetchSite === "none";
}

function expectedOrigin(request: Request): string {
  const configured = env().APP_URL;
  return configured ? new URL(configured).origin : new URL(request.url).origin;
}
