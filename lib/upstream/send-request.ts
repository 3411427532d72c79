import "server-only";
import { AppError } from "@/lib/errors";

export type ReplyBody =
  | { kind: "json"; value: unknown }
  | { kind: "html" }
  | { kind: "text" }
  | { kind: "empty" };

/** An HTTP answer with its body read and classified, whatever its status. */
export type UpstreamReply = {
  status: number;
  contentType: string;
  body: ReplyBody;
  /** The Retry-After header as sent (seconds or an HTTP date), for a 429 or 503. */
  retryAfter?: string | null;
};

export type OutgoingRequest = {
  method: "GET" | "POST";
  url: URL;
  headers: Record<string, string>;
  body?: string | FormData;
};

/**
 * Performs one HTTP exchange within `timeoutMs`, body included. Throws UPSTREAM_TIMEOUT or
 * UPSTREAM_NETWORK when no complete answer arrived; any answer that did arrive is returned for the
 * caller to judge.
 */
export async function sendRequest(
  request: OutgoingRequest,
  options: { timeoutMs: number; fetch: typeof fetch },
): Promise<UpstreamReply> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const callName = `${request.method} ${request.url.pathname}`;
  try {
    const response = await rejectOnAbort(
      options.fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal }),
      signal,
    );
    const text = await rejectOnAbort(response.text(), signal);
    const contentType = response.headers.get("content-type") ?? "";
    return { status: response.status, contentType, body: classifyBody(text, contentType), retryAfter: response.headers.get("retry-after") };
  } catch (error) {
    if (signal.aborted) {
      throw new AppError("UPSTREAM_TIMEOUT", `${callName} got no complete answer within ${options.timeoutMs} ms`, {
        cause: error,
      });
    }
    throw new AppError("UPSTREAM_NETWORK", `${callName} failed before an answer: ${describeNetworkError(error)}`, {
      cause: error,
    });
  }
}

/**
 * Settles with the abort even when the promise ignores the signal, so a stalled fetch
 * implementation or body stream cannot outlive the timeout.
 */
function rejectOnAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

// Content-Type is not trusted either way: some services label JSON text/html and HTML error pages
// application/json, so the body itself decides.
function classifyBody(text: string, contentType: string): ReplyBody {
  if (text.trim() === "") return { kind: "empty" };
  try {
    return { kind: "json", value: JSON.parse(text) as unknown };
  } catch {
    const looksLikeHtml = /text\/html/i.test(contentType) || /^\s*</.test(text);
    return looksLikeHtml ? { kind: "html" } : { kind: "text" };
  }
}

/** Names the system error (ECONNREFUSED, ENOTFOUND, …) that undici hides in `cause`. */
function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = readErrorCode(cause) ?? readErrorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined ? message : `${message} (${code})`;
}

function readErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

export function describeReplyBody(body: ReplyBody, contentType: string): string {
  switch (body.kind) {
    case "json":
      return "a JSON body";
    case "html":
      return "an HTML page instead of JSON";
    case "text":
      return `a body that is not valid JSON (content-type ${contentType || "missing"})`;
    case "empty":
      return "an empty body";
  }
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
