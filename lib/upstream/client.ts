import "server-only";
import type pino from "pino";
import { AppError, toAppError, type ErrorCode } from "@/lib/errors";
import { readJsonReply, readTokenResultReply, readTokenStateReply, type ReplyContext } from "./reply-readers";
import { buildFingerprintTokenBody, buildRemoteTokenForm } from "./request-bodies";
import { fingerprintTokenResponseSchema, remoteTokenResponseSchema } from "./response-schemas";
import { scrubText } from "./scrub";
import { sendRequest, type UpstreamReply } from "./send-request";
import type { UpstreamClient } from "./types";

export type UpstreamLogger = Pick<pino.BaseLogger, "info" | "warn">;

export type UpstreamClientOptions = {
  /** Origin (and any prefix) the spec's `/api/...` paths are appended to. */
  baseUrl: string;
  /** The ready X-API-AUTH header value. */
  apiKey: string;
  /** Limit of each status call (the two GETs), body included. */
  timeoutMs: number;
  /**
   * Limit of each issuing call (the two POSTs). Longer than the status calls: a slow provider
   * that answers a POST late has already created the token and sent its SMS, so giving up early
   * loses a live token (ADR 0017). Defaults to `timeoutMs`.
   */
  issueTimeoutMs?: number;
  logger: UpstreamLogger;
  /** The id of the staff request a call is made for, put on its log lines (lib/request-context). */
  requestIdOf?: () => string | undefined;
  /** Told of every call once it has settled (the metrics; lib/upstream/default-client.ts). */
  onCallSettled?: (call: SettledCall) => void;
  fetch?: typeof fetch;
};

/** One call, as the metrics see it: which endpoint, "ok" or the error code, and how long. */
export type SettledCall = { endpoint: keyof typeof upstreamPaths; outcome: "ok" | ErrorCode; durationMs: number };

export const upstreamPaths = {
  fingerprintToken: "/api/fingerprint/initiate_finger_verification_sdk",
  remoteToken: "/api/identification/initiate/token_verification",
  tokenState: "/api/identification/check_token_status",
  tokenResult: "/api/identification/token_status",
} as const;

type CallPlan<Result> = {
  method: "GET" | "POST";
  endpoint: keyof typeof upstreamPaths;
  /** The token queried, for the log line. */
  token?: string;
  body?: { content: string | FormData; sensitiveValues: readonly string[] };
  readReply: (reply: UpstreamReply, context: ReplyContext) => Result;
  /** What the log line may say about the outcome (never personal data). */
  describeResult: (result: Result) => Record<string, string>;
};

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const baseUrl = readBaseUrl(options.baseUrl);
  const fetchImplementation = options.fetch ?? globalThis.fetch;

  async function perform<Result>(plan: CallPlan<Result>): Promise<Result> {
    const path = upstreamPaths[plan.endpoint];
    const url = new URL(baseUrl + path);
    if (plan.token !== undefined) url.searchParams.set("token", plan.token);
    const headers: Record<string, string> = { "X-API-AUTH": options.apiKey, Accept: "application/json" };
    // FormData bodies get their multipart boundary from fetch; setting Content-Type here would drop it.
    if (typeof plan.body?.content === "string") headers["Content-Type"] = "application/json";

    const sensitiveValues = [options.apiKey, ...(plan.body?.sensitiveValues ?? [])];
    const context: ReplyContext = {
      callName: `${plan.method} ${path}`,
      scrub: (text) => scrubText(text, sensitiveValues),
    };
    // Every call is made once. A POST creates a token and may send an SMS, so repeating it could
    // do both twice; a GET is asked again by the watcher's next poll, and retrying inside a poll
    // would only hold its slot (and the provider's rate budget) longer.
    const timeoutMs = plan.method === "POST" ? (options.issueTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
    const startedAt = performance.now();
    const logFields = { requestId: options.requestIdOf?.(), method: plan.method, path, token: plan.token, timeoutMs };
    let status: number | undefined;
    try {
      const reply = await sendRequest(
        { method: plan.method, url, headers, body: plan.body?.content },
        { timeoutMs, fetch: fetchImplementation },
      );
      status = reply.status;
      const result = plan.readReply(reply, context);
      const durationMs = elapsedSince(startedAt);
      options.logger.info({ ...logFields, status, durationMs, ...plan.describeResult(result) }, "upstream call succeeded");
      options.onCallSettled?.({ endpoint: plan.endpoint, outcome: "ok", durationMs });
      return result;
    } catch (error) {
      const failure = toAppError(error);
      const durationMs = elapsedSince(startedAt);
      options.onCallSettled?.({ endpoint: plan.endpoint, outcome: failure.code, durationMs });
      options.logger.warn(
        {
          ...logFields,
          status,
          durationMs,
          errorCode: failure.code,
          // Internal messages are built here from scrubbed text, so they are safe to log.
          errorMessage: failure.message,
          ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
        },
        "upstream call failed",
      );
      throw failure;
    }
  }

  return {
    async initiateFingerprintToken(request) {
      const prepared = buildFingerprintTokenBody(request);
      return perform({
        method: "POST",
        endpoint: "fingerprintToken",
        body: { content: prepared.body, sensitiveValues: prepared.sensitiveValues },
        readReply: (reply, context) => {
          const { token, message } = readJsonReply(reply, context, fingerprintTokenResponseSchema);
          return message === undefined ? { token } : { token, message };
        },
        describeResult: ({ token }) => ({ issuedToken: token }),
      });
    },

    async initiateRemoteToken(request) {
      const prepared = buildRemoteTokenForm(request);
      return perform({
        method: "POST",
        endpoint: "remoteToken",
        body: { content: prepared.body, sensitiveValues: prepared.sensitiveValues },
        readReply: (reply, context) => {
          const body = readJsonReply(reply, context, remoteTokenResponseSchema);
          return {
            token: body.verificationtoken,
            phoneNumber: body.phonenumber ?? request.phonenumber,
            ...(body.responsemessage === undefined ? {} : { message: body.responsemessage }),
          };
        },
        describeResult: ({ token }) => ({ issuedToken: token, idType: request.id_type }),
      });
    },

    async checkTokenState(token) {
      return perform({
        method: "GET",
        endpoint: "tokenState",
        token: requireToken(token),
        readReply: readTokenStateReply,
        describeResult: ({ state }) => ({ state }),
      });
    },

    async getTokenResult(token) {
      const queriedToken = requireToken(token);
      return perform({
        method: "GET",
        endpoint: "tokenResult",
        token: queriedToken,
        readReply: (reply, context) => readTokenResultReply(reply, context, queriedToken),
        describeResult: (result) => ({ resultKind: result.kind, ...(result.kind === "result" ? { outcome: result.status } : {}) }),
      });
    },
  };
}

function readBaseUrl(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) {
    throw new AppError("CONFIGURATION", "UPSTREAM_BASE_URL is not a valid URL");
  }
  return baseUrl.replace(/\/+$/, "");
}

// An empty token would make the service answer about no token at all, which reads like a real answer.
function requireToken(token: string): string {
  const trimmed = token.trim();
  if (trimmed === "") throw new AppError("INTERNAL", "a token lookup was asked for without a token");
  return trimmed;
}

function elapsedSince(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}

