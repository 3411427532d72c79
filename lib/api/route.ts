import "server-only";
import { randomUUID } from "node:crypto";
import { AppError, toAppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { withRequestId } from "@/lib/request-context";
import { claimIdempotencyKey, isValidIdempotencyKey, releaseIdempotencyKey, requestHashOf, storeIdempotentAnswer } from "./idempotency";
import { authenticateApiKey, type ApiCaller } from "./keys";
import { problemBody, problemResponse, PROBLEM_CONTENT_TYPE, type ProblemBody } from "./problem";
import { countApiRequest } from "./rate-limit";
import { tokenCreateRequestSchema, tokenCreatedSchema, tokenIdParamsSchema, tokenListQuerySchema, tokenListSchema, tokenSchema, purposeListSchema } from "./schemas";
import type { ApiScope } from "./scopes";
import { apiFieldName, getTokenForApi, issueTokenThroughApi, listPurposesForApi, listTokensForApi, type ApiDependencies } from "./tokens";

/**
 * The route handlers of /api/v1, built here and exported by the app's route files in one line
 * each (`export const POST = postTokenRoute(apiDependencies)`), so the tests drive exactly these
 * handlers against their own database and service. Every request: the key (401), its scope (403),
 * its rate (429 with Retry-After), then the handler; every error answers as problem details.
 */

const log = logger.child({ module: "api" });

type ApiAnswer = { status: number; body: unknown; headers?: Record<string, string> };
type HandlerContext<P> = { request: Request; caller: ApiCaller; requestId: string; deps: ApiDependencies; params: P; now: Date };
export type ApiDependencyProvider = () => Promise<ApiDependencies>;

function answer({ status, body, headers }: ApiAnswer, requestId: string): Response {
  const contentType = status >= 400 ? PROBLEM_CONTENT_TYPE : "application/json";
  return new Response(JSON.stringify(body), { status, headers: { "content-type": contentType, "cache-control": "no-store", "x-request-id": requestId, ...headers } });
}

function problemOf(error: unknown, requestId: string, status?: number): ProblemBody {
  const appError = toAppError(error);
  if (appError.httpStatus >= 500) log.error({ err: error, code: appError.code }, "api request failed");
  return problemBody(appError, { requestId, status, renameField: apiFieldName });
}

export function apiRoute<P = unknown>(getDeps: ApiDependencyProvider, options: { scope: ApiScope }, handler: (context: HandlerContext<P>) => Promise<ApiAnswer>) {
  return async (request: Request, context: { params: P }): Promise<Response> => {
    const requestId = randomUUID();
    return withRequestId(requestId, async () => {
      try {
        const deps = await getDeps();
        const now = new Date();
        const caller = await authenticateApiKey(deps.db, request.headers.get("authorization"), now, { refuseTestKeys: deps.refuseTestKeys ?? false });
        if (!caller.scopes.includes(options.scope)) {
          throw new AppError("FORBIDDEN", `key ${caller.keyId} lacks ${options.scope}`, { userMessage: `This key lacks the scope ${options.scope}.` });
        }
        const rate = await countApiRequest(deps.db, caller.keyId, caller.rateLimitPerMinute, now);
        if (!rate.isAllowed) {
          const limited = new AppError("RATE_LIMITED", `key ${caller.keyId} over ${caller.rateLimitPerMinute}/min`, {
            userMessage: `This key may send ${caller.rateLimitPerMinute} requests a minute. Try again in ${rate.retryAfterSeconds} s.`,
          });
          return problemResponse(problemOf(limited, requestId), { "retry-after": String(rate.retryAfterSeconds), "x-request-id": requestId });
        }
        return answer(await handler({ request, caller, requestId, deps, params: context.params, now }), requestId);
      } catch (error) {
        return problemResponse(problemOf(error, requestId), { "x-request-id": requestId });
      }
    });
  };
}

const badRequest = (message: string, field: string) => new AppError("VALIDATION", message, { userMessage: message, fieldErrors: { [field]: [message] } });

/** POST /api/v1/tokens: issue a token, at most once per Idempotency-Key. */
export function postTokenRoute(getDeps: ApiDependencyProvider) {
  return apiRoute(getDeps, { scope: "tokens:write" }, async ({ request, caller, requestId, deps, now }): Promise<ApiAnswer> => {
    const key = request.headers.get("idempotency-key");
    if (key === null) return { status: 400, body: problemOf(badRequest("Send an Idempotency-Key header: a new unique value for each new token.", "Idempotency-Key"), requestId, 400) };
    if (!isValidIdempotencyKey(key)) return { status: 400, body: problemOf(badRequest("The Idempotency-Key must be 1 to 255 visible ASCII characters.", "Idempotency-Key"), requestId, 400) };
    let raw: unknown;
    try {
      raw = await request.json();
    } catch {
      return { status: 400, body: problemOf(badRequest("The body is not JSON.", "body"), requestId, 400) };
    }
    const parsed = tokenCreateRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0] ?? "body")] ??= []).push(issue.message);
      return { status: 422, body: problemOf(new AppError("VALIDATION", "api body invalid", { fieldErrors }), requestId) };
    }

    const claim = await claimIdempotencyKey(deps.db, caller.serviceUserId, key, requestHashOf("POST", "/api/v1/tokens", raw), now);
    switch (claim.kind) {
      case "mismatch":
        return {
          status: 422,
          body: problemOf(
            new AppError("IDEMPOTENCY_KEY_REUSED", "idempotency key reused with another body", {
              userMessage: "This Idempotency-Key was used with another body. Nothing new was issued; use a new key for a new token.",
            }),
            requestId,
            422,
          ),
        };
      case "in_flight":
        return {
          status: 409,
          body: problemOf(new AppError("REQUEST_IN_PROGRESS", "idempotency key in flight", { userMessage: "A request with this Idempotency-Key is still running. Retry later." }), requestId),
          headers: { "retry-after": "1" },
        };
      case "replay":
        return { status: claim.status, body: claim.body, headers: { "idempotent-replayed": "true" } };
      case "claimed":
        break;
    }

    try {
      const created = await issueTokenThroughApi(deps, caller, parsed.data, key, requestId);
      const body = tokenCreatedSchema.parse(created);
      await storeIdempotentAnswer(deps.db, caller.serviceUserId, key, 201, body);
      return { status: 201, body, headers: { location: `/api/v1/tokens/${body.id}` } };
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === "INTERNAL") {
        await releaseIdempotencyKey(deps.db, caller.serviceUserId, key);
        throw error;
      }
      // A refusal or a failure of the service is the answer to this key, as the first time.
      const body = problemOf(appError, requestId);
      await storeIdempotentAnswer(deps.db, caller.serviceUserId, key, body.status, body);
      return { status: body.status, body };
    }
  });
}

/** GET /api/v1/tokens?reference=…&since=…: this integration's tokens of its branches, newest first. */
export function listTokensRoute(getDeps: ApiDependencyProvider) {
  return apiRoute(getDeps, { scope: "tokens:read" }, async ({ request, caller, deps, now }) => {
    const search = new URL(request.url).searchParams;
    const parsed = tokenListQuerySchema.safeParse(Object.fromEntries(search.entries()));
    if (!parsed.success) {
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0] ?? "query")] ??= []).push(issue.message);
      throw new AppError("VALIDATION", "api list query invalid", { fieldErrors });
    }
    return { status: 200, body: tokenListSchema.parse(await listTokensForApi(deps, caller, parsed.data, now)) };
  });
}

/** GET /api/v1/tokens/{id}: one token's state and result; another's, or none, is 404 alike. */
export function getTokenRoute(getDeps: ApiDependencyProvider) {
  return apiRoute<Promise<{ id: string }>>(getDeps, { scope: "tokens:read" }, async ({ caller, deps, params }) => {
    const parsed = tokenIdParamsSchema.safeParse(await params);
    if (!parsed.success) throw new AppError("NOT_FOUND", "token id is not a uuid", { userMessage: "No token with this id." });
    return { status: 200, body: tokenSchema.parse(await getTokenForApi(deps.db, caller, parsed.data.id)) };
  });
}

/** GET /api/v1/purposes: what `purpose` may be, and the consent wording in force. */
export function listPurposesRoute(getDeps: ApiDependencyProvider) {
  return apiRoute(getDeps, { scope: "tokens:read" }, async ({ deps }) => ({ status: 200, body: purposeListSchema.parse(await listPurposesForApi(deps.db)) }));
}

