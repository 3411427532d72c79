import { passkeyPaths } from "@/lib/auth/passkey/dto";
import { handleAuthRequest, SIGN_IN_PATH } from "@/lib/auth/server";
import { CODE_PATHS } from "@/lib/auth/two-factor/code-step";
import { SSO_CALLBACK_PATH, SSO_START_PATH } from "@/lib/auth/sso/provider";

/**
 * better-auth's HTTP endpoints, narrowed to the one the browser needs: sign-in. Sign-out, the
 * session check and everything else run on the server through `auth.api` (lib/auth), so
 * better-auth's other routes — profile updates, password changes, e-mail flows — are not
 * reachable from outside at all. Rate limiting and the lock-out run inside `auth.handler`.
 */
const exposed = new Set([
  `POST /api/auth${SIGN_IN_PATH}`,
  // The second step of a password sign-in: an authenticator code or a backup code (lib/auth/two-factor).
  ...Object.keys(CODE_PATHS).map((path) => `POST /api/auth${path}`),
  // Single sign-on through the bank's identity provider (lib/auth/sso): its start and callback.
  `GET /api/auth${SSO_START_PATH}`,
  `GET /api/auth${SSO_CALLBACK_PATH}`,
  // Passkeys (lib/auth/passkey): sign-in without a username, and a staff member's own passkeys.
  ...Object.values(passkeyPaths).map((path) => `${path === passkeyPaths.list ? "GET" : "POST"} /api/auth${path}`),
]);

async function handle(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (!exposed.has(`${request.method} ${pathname}`)) {
    return Response.json({ error: { code: "NOT_FOUND", message: "We could not find that." } }, { status: 404, headers: { "cache-control": "no-store" } });
  }
  return handleAuthRequest(request);
}

export const GET = handle;
export const POST = handle;
