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
 */
const publicPaths = ["/sign-in"];

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const isProduction = process.env.APP_ENV === "production";

  if (pathname.startsWith("/api/")) {
    return withSecurityHeaders(NextResponse.next(), apiContentSecurityPolicy, isProduction);
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

function withSecurityHeaders(response: NextResponse, policy: string, isProduction: boolean): NextResponse {
  response.headers.set("content-security-policy", policy);
  if (isProduction) response.headers.set("strict-transport-security", strictTransportSecurity);
  return response;
}

export const config = {
  // Everything but Next's own static files (next.config.js gives those the static headers).
  matcher: ["/((?!_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
