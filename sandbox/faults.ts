import { setTimeout as sleep } from "node:timers/promises";
import type { FaultMode } from "./store";

export const DEFAULT_DELAY_MS = 1_000;

const NGINX_BAD_GATEWAY = [
  "<html>",
  "<head><title>502 Bad Gateway</title></head>",
  "<body>",
  "<center><h1>502 Bad Gateway</h1></center>",
  "<hr><center>nginx</center>",
  "</body>",
  "</html>",
  "",
].join("\r\n");

/** Faults that replace the answer outright; the request is never processed, so nothing is created. */
export type ReplacingFaultMode = Exclude<FaultMode, "delay" | "slow" | "hang">;

export function isReplacingFault(mode: FaultMode): mode is ReplacingFaultMode {
  return mode !== "delay" && mode !== "slow" && mode !== "hang";
}

export function createFaultResponse(mode: ReplacingFaultMode, options: { retryAfterSeconds?: number } = {}): Response {
  const json = (body: unknown, status: number) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  switch (mode) {
    case "500":
      return json({ message: "Internal Server Error" }, 500);
    case "502-html":
      return new Response(NGINX_BAD_GATEWAY, { status: 502, headers: { "Content-Type": "text/html" } });
    case "malformed-json":
      return new Response('{"responsemessage": "Pend', { status: 200, headers: { "Content-Type": "application/json" } });
    case "wrong-shape":
      return json({ ok: true, result: [1, 2, 3] }, 200);
    case "401":
      return json({ message: "Unauthorized" }, 401);
    case "invalid-token":
      return json({ responsemessage: "Invalid Token" }, 200);
    case "429":
      return new Response(JSON.stringify({ message: "Too Many Requests" }), {
        status: 429,
        headers: {
          "Content-Type": "application/json",
          ...(options.retryAfterSeconds === undefined ? {} : { "Retry-After": String(options.retryAfterSeconds) }),
        },
      });
  }
}

/** What a gateway in front of the provider answers for a path it has nothing behind. */
export const GATEWAY_NOT_FOUND_PAGE = [
  "<html>",
  "<head><title>404 Not Found</title></head>",
  "<body>",
  "<center><h1>404 Not Found</h1></center>",
  "<hr><center>nginx</center>",
  "</body>",
  "</html>",
  "",
].join("\r\n");

/** Waits, but gives up early when the client disconnects so a closing server is not held up. */
export async function delayUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

/** Resolves only once the client has gone (it gave up, or the server dropped every connection). */
export function waitForDisconnect(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
