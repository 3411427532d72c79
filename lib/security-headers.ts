/**
 * The per-request security headers (proxy.ts sets them on every answer; the static ones —
 * X-Frame-Options, nosniff, Referrer-Policy, Permissions-Policy — are in next.config.js, which
 * Node loads untranspiled). Plain code, no server-only imports: the proxy bundle cannot take them.
 *
 * Scripts run only with this request's nonce ('strict-dynamic' lets those load Next's chunks), so
 * an injected <script> or inline handler does not run. Styles may be inline: React and Radix
 * write style attributes, and a style cannot run code. Nothing may frame Veridesk, and forms post
 * only to it.
 */

export const NONCE_HEADER = "x-nonce";

export function newNonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function pageContentSecurityPolicy(nonce: string, options: { isDevelopment: boolean }): string {
  return [
    "default-src 'self'",
    // 'unsafe-eval' only under `next dev`, whose refresh runtime needs it; never in a build.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.isDevelopment ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** JSON and CSV answers render nothing: they need no source at all. */
export const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Two years, subdomains too: a bank's desk is never served over plain HTTP. Production only. */
export const strictTransportSecurity = "max-age=63072000; includeSubDomains";
