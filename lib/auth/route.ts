import "server-only";
import { AppError, errorCatalog, toAppError } from "@/lib/errors";
import { hasNulCharacter } from "@/lib/validation/query-values";
import { logger, type Logger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";
import { withRequestId } from "@/lib/request-context";
import { newSupportCode } from "@/lib/support/support-code";
import { branchScopeFor, type BranchScope } from "./branch-scope";
import { isOwnOriginRequest } from "./request-origin";
import type { Permission } from "./permissions";
import { authenticate } from "./session";
import type { Staff } from "./types";

/**
 * For route handlers: authenticate (401), authorise by permission (403), run, and turn any
 * AppError into `{ error: { code, message, requestId } }` with the status of its code. Nothing of
 * the handler runs for a refused request.
 *
 *   export const GET = staffRoute({ permission: "tokens.view", countsAsActivity: false },
 *     async ({ staff, scope, params }) => Response.json(await getToken(scope, (await params).id)));
 */
export type StaffRouteContext<P> = {
  request: Request;
  staff: Staff;
  scope: BranchScope;
  params: P;
  requestId: string;
  log: Logger;
};

export function staffRoute<P = Promise<Record<string, string | string[]>>>(
  options: {
    permission: Permission | null;
    countsAsActivity?: boolean;
    /**
     * Refuse requests that did not come from Veridesk's own pages (request-origin.ts): for routes
     * whose mere running matters (exports are audited, carry customer data). "post" also refuses
     * a request with no browser origin headers at all.
     */
    ownOriginOnly?: "get" | "post";
    /** The browser's poll routes: each answer's duration and status go to the metrics under this name. */
    timedAs?: "token" | "today";
  },
  handler: (context: StaffRouteContext<P>) => Promise<Response>,
): (request: Request, segment: { params: P }) => Promise<Response> {
  const run = runStaffRoute(options, handler);
  if (!options.timedAs) return run;
  const route = options.timedAs;
  return async (request, segment) => {
    const startedAt = performance.now();
    const response = await run(request, segment);
    metrics().pollRouteSeconds.observe({ route, status: String(response.status) }, (performance.now() - startedAt) / 1000);
    return response;
  };
}

function runStaffRoute<P>(
  options: { permission: Permission | null; countsAsActivity?: boolean; ownOriginOnly?: "get" | "post" },
  handler: (context: StaffRouteContext<P>) => Promise<Response>,
): (request: Request, segment: { params: P }) => Promise<Response> {
  return async (request, segment) => {
    // The support code staff read out is the id every log line of this request carries (ADR 0029).
    const requestId = newSupportCode();
    const log = logger.child({ requestId, route: new URL(request.url).pathname, method: request.method });
    try {
      // No query value of any route may carry `\0` into SQL; refused before anything else runs.
      if ([...new URL(request.url).searchParams].some(([key, value]) => hasNulCharacter(key) || hasNulCharacter(value))) {
        throw new AppError("VALIDATION", "NUL character in the query");
      }
      const staff = await authenticate(request.headers, {
        permission: options.permission,
        countsAsActivity: options.countsAsActivity ?? true,
      });
      if (options.ownOriginOnly && !isOwnOriginRequest(request, { requiresBrowserProof: options.ownOriginOnly === "post" })) {
        throw new AppError("FORBIDDEN", "request from another site refused");
      }
      const context = { request, staff, scope: branchScopeFor(staff), params: segment.params, requestId, log: log.child({ userId: staff.userId }) };
      return await withRequestId(requestId, () => handler(context));
    } catch (error) {
      return errorResponse(error, requestId, log);
    }
  };
}

/** The JSON error answer of every route handler: the user copy of the code, never internals. */
export function errorResponse(error: unknown, requestId: string, log: Logger = logger): Response {
  const appError = toAppError(error);
  const status = errorCatalog[appError.code].httpStatus;
  const entry = { code: appError.code, err: status >= 500 ? error : undefined, internal: appError.message };
  if (status >= 500) log.error(entry, "route failed");
  else log.info(entry, "route refused");
  return Response.json(
    { error: { code: appError.code, message: appError.userMessage, requestId, fieldErrors: appError.fieldErrors } },
    { status, headers: { "cache-control": "no-store" } },
  );
}
