import { NextResponse, type NextRequest } from "next/server";
import { isSessionCookieName, REQUEST_PATH_HEADER } from "@/lib/auth/constants";
import {
  apiContentSecurityPolicy,
  newNonce,
  NONCE_HEADER,
  pageContentSecurityPolicy,
  strictTransportSecurity,
} from "@/lib/security-headers";

/**
 * Turns signed-out browsers to the sign-in page — and decides nothing else about access. Having a
 * cookie is not being signed in: every page, route handler and action checks the session itself
 * (lib/auth). Route handlers (/api) answer 401 themselves, and server-action posts reach their
 * action, which answers UNAUTHENTICATED; a redirect would hide both.
 *
 * It also puts the security headers on every answer (lib/security-headers.ts): a fresh CSP nonce
 * per page request, handed to Next in the request's own CSP header so that Next puts it on its
 * scripts, and HSTS in production.
 *
 * And it answers 403 to a server-action POST from another site. Next refuses those itself, but
 * by throwing, which answers 500 (and logs an error) as if Veridesk had failed.
 */
/** The API reference: a page (so it gets a nonce for its script) open to the bank's developers; it shows no data. */
const API_DOCS_PATH = "/api/v1/docs";
const publicPaths = ["/sign-in", API_DOCS_PATH];

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const isProduction = process.env.APP_ENV === "production";

  if (pathname.startsWith("/api/") && pathname !== API_DOCS_PATH) {
    return withSecurityHeaders(NextResponse.next(), apiContentSecurityPolicy, isProduction);
  }

  if (isForeignServerActionPost(request)) {
    const refusal = new NextResponse("This request did not come from Veridesk's own pages.", {
      status: 403,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
    return withSecurityHeaders(refusal, apiContentSecurityPolicy, isProduction);
  }

  const isPublic = publicPaths.some((path) => pathname === path || pathname.startsWith(`${path}/`));
  const hasSessionCookie = request.cookies.getAll().some((cookie) => isSessionCookieName(cookie.name));
  const isPageRequest = (request.method === "GET" || request.method === "HEAD") && !request.headers.has("next-action");

  if (!isPublic && !hasSessionCookie && isPageRequest) {
    const signIn = new URL("/sign-in", request.url);
    if (pathname !== "/") signIn.searchParams.set("next", `${pathname}${search}`);
    return withSecurityHeaders(NextResponse.redirect(signIn), apiContentSecurityPolicy, isProduction);
  }

  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce, { isDevelopment: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  // Pages read this to send an expired session back to where it was (lib/auth/pages.ts).
  requestHeaders.set(REQUEST_PATH_HEADER, `${pathname}${search}`);
  // Next reads the nonce for its own scripts from the request's CSP; our code from x-nonce.
  requestHeaders.set(NONCE_HEADER, nonce);
  requestHeaders.set("content-security-policy", policy);
  return withSecurityHeaders(NextResponse.next({ request: { headers: requestHeaders } }), policy, isProduction);
}

/**
 * What Next's action handler refuses as cross-site (app-render/action-handler.js), decided the
 * same way so the two never disagree: a POST that may be a server action (the `Next-Action`
 * header, or a form's multipart or url-encoded body) whose `Origin` host (`null` included) is not
 * the host the request was addressed to (`X-Forwarded-Host`'s first entry, else `Host`). A POST
 * without `Origin` is not a browser's cross-site request; Next lets it through, and so do we.
 */
export function isForeignServerActionPost(request: NextRequest): boolean {
  if (request.method !== "POST") return false;
  const contentType = request.headers.get("content-type") ?? "";
  const mayBeAction =
    request.headers.has("next-action") || contentType.startsWith("multipart/form-data") || contentType.startsWith("application/x-www-form-urlencoded");
  if (!mayBeAction) return false;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  const forwardedHost = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = forwardedHost || request.headers.get("host");
  return originHostOf(origin) !== host;
}

function originHostOf(origin: string): string | null {
  if (origin === "null") return "null";
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function withSecurityHeaders(response: NextResponse, policy: string, isProduction: boolean): NextResponse {
  response.headers.set("content-security-policy", policy);
  if (isProduction) response.headers.set("strict-transport-security", strictTransportSecurity);
  return response;
}

export const config = {
  // Everything but Next's own static files (next.config.js gives those the static headers).
  matcher: ["/((?!_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
