import { NONCE_HEADER } from "@/lib/security-headers";

/**
 * The API reference page (Scalar), rendering /api/v1/openapi.json. Its script is served from the
 * app (./standalone.js) under this request's CSP nonce (proxy.ts gives this path a page policy),
 * so nothing is fetched from outside and no inline script runs without the nonce.
 */
export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  const nonce = request.headers.get(NONCE_HEADER) ?? "";
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Veridesk API reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="/api/v1/openapi.json" nonce="${nonce}"></script>
    <script src="/api/v1/docs/standalone.js" nonce="${nonce}"></script>
  </body>
</html>
`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
