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

function expectedOrigin(request: Request): string {
  const configured = env().APP_URL;
  return configured ? new URL(configured).origin : new URL(request.url).origin;
}
