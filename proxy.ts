import { NextResponse, type NextRequest } from "next/server";
import { isSessionCookieName, REQUEST_PATH_HEADER } from "@/lib/auth/constants";

/**
 * Turns signed-out browsers to the sign-in page — and decides nothing else. Having a cookie is
 * not being signed in: every page, route handler and action checks the session itself
 * (lib/auth). Route handlers (/api) answer 401 themselves, and server-action posts reach their
 * action, which answers UNAUTHENTICATED; a redirect would hide both.
 */
const publicPaths = ["/sign-in"];

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const isPublic = publicPaths.some((path) => pathname === path || pathname.startsWith(`${path}/`));
  const hasSessionCookie = request.cookies.getAll().some((cookie) => isSessionCookieName(cookie.name));
  const isPageRequest = (request.method === "GET" || request.method === "HEAD") && !request.headers.has("next-action");

  if (!isPublic && !hasSessionCookie && isPageRequest) {
    const signIn = new URL("/sign-in", request.url);
    if (pathname !== "/") signIn.searchParams.set("next", `${pathname}${search}`);
    return NextResponse.redirect(signIn);
  }

  // Pages read this to send an expired session back to where it was (lib/auth/pages.ts).
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(REQUEST_PATH_HEADER, `${pathname}${search}`);
  return NextResponse.next({ request: { headers: requestHeaders } });
}

export const config = {
  // Everything but route handlers, Next's own files and static files.
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|robots.txt|.*\\.(?:png|svg|ico|jpg|jpeg|webp|txt)$).*)"],
};
