import { NextResponse, type NextRequest } from "next/server";
import { isSessionCookieName, REQUEST_PATH_HEADER } from "@/lib/auth/constants";
import {
  apiContentSecurityPolicy,
  newNonce,
  NONCE_HEADER,
  pageContentSecurityPolicy,
  strictTransportSecurity,
} from "@/lib/security-headers";
import { boundActionRepliesOf, isDecodableReply, replyPartsOf, SERVER_ACTION_BODY_LIMIT_BYTES, type ReplyParts } from "@/lib/server-action-reply";

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
 * And it answers 403 to a server-action POST from another site, and 400 (or 413) to one whose body
 * React's decoder cannot read (lib/server-action-reply.ts). Next refuses those itself, but by
 * throwing, which answers 500 (and logs an error) as if Veridesk had failed. Only such posts
 * have their body read here (Next keeps a copy for the action); every other request passes as is.
 */
/** The API reference: a page (so it gets a nonce for its script) open to the bank's developers; it shows no data. */
const API_DOCS_PATH = "/api/v1/docs";
const publicPaths = ["/sign-in", API_DOCS_PATH];

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname } = request.nextUrl;
  const isProduction = process.env.APP_ENV === "production";

  if (pathname.startsWith("/api/") && pathname !== API_DOCS_PATH) {
    return withSecurityHeaders(NextResponse.next(), apiContentSecurityPolicy, isProduction);
  }

  if (isForeignServerActionPost(request)) return refusal(403, "This request did not come from Veridesk's own pages.", isProduction);

  if (isDecodedServerActionPost(request)) {
    const refused = await refusalOfUnreadableActionBody(request, isProduction);
    if (refused) return refused;
  }
  return pageResponse(request, isProduction);
}

function pageResponse(request: NextRequest, isProduction: boolean): NextResponse {
  const { pathname, search } = request.nextUrl;
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
 * The posts whose body Next gives React's reply decoder (app-render/action-handler.js): a fetch
 * call of an action (the `Next-Action` header; multipart or any other body), and a form's
 * multipart post without JavaScript (it may carry a bound action's reply). A url-encoded post
 * without the header is decoded by no one.
 */
function isDecodedServerActionPost(request: NextRequest): boolean {
  if (request.method !== "POST") return false;
  return request.headers.has("next-action") || isMultipart(request);
}

function isMultipart(request: NextRequest): boolean {
  return (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
}

/** 413 for a body over Next's limit, 400 for one React's decoder would throw on; null when it may pass. */
async function refusalOfUnreadableActionBody(request: NextRequest, isProduction: boolean): Promise<NextResponse | null> {
  const unreadable = () => refusal(400, "This request is not one Veridesk's pages send.", isProduction);
  let body: ArrayBuffer;
  try {
    body = await request.clone().arrayBuffer();
  } catch {
    return unreadable();
  }
  if (body.byteLength > SERVER_ACTION_BODY_LIMIT_BYTES) return refusal(413, "This request is larger than Veridesk's pages send.", isProduction);
  let replies: ReplyParts[];
  if (isMultipart(request)) {
    let form: FormData;
    try {
      form = await new Response(body, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
    } catch {
      return unreadable();
    }
    replies = request.headers.has("next-action") ? [replyPartsOf(form)] : boundActionRepliesOf(form);
  } else {
    replies = [replyPartsOf(new TextDecoder().decode(body))];
  }
  return replies.every(isDecodableReply) ? null : unreadable();
}

function refusal(status: number, text: string, isProduction: boolean): NextResponse {
  const response = new NextResponse(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  return withSecurityHeaders(response, apiContentSecurityPolicy, isProduction);
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
