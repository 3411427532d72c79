import "server-only";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { checkedLookup, RefusedAddressError, refusalOf, systemResolver, type AddressPolicy, type Resolver } from "./address-policy";

/**
 * One HTTP POST of a webhook: no redirect is ever followed (a 3xx is a failed attempt), the whole
 * exchange ends after 15 s, a fresh connection each time (no pooled socket carries an address
 * checked for another name), and the destination is checked when connecting (address-policy.ts).
 */

export const WEBHOOK_TIMEOUT_MS = 15_000;
const EXCERPT_CHARS = 1_000;
const MAX_READ_BYTES = 64 * 1024;

export type SendOptions = {
  policy: AddressPolicy;
  /** Production: only https:// URLs. */
  requireHttps: boolean;
  timeoutMs?: number;
  resolver?: Resolver;
};

export type SendResult =
  | { kind: "answered"; statusCode: number; excerpt: string; latencyMs: number }
  | { kind: "refused"; error: string; latencyMs: number }
  | { kind: "failed"; error: string; latencyMs: number };

/** Why this URL can never be a webhook endpoint (checked when it is registered, and again on each send), or null. */
export function urlProblemOf(raw: string, options: Pick<SendOptions, "policy" | "requireHttps">): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && !options.requireHttps)) {
    return options.requireHttps ? "must be an https:// URL" : "must be an http:// or https:// URL";
  }
  if (url.username || url.password) return "must not carry a user name or password";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0) {
    const refusal = refusalOf(host, options.policy);
    if (refusal) return `points at a refused address: ${refusal}`;
  }
  return null;
}

export function sendWebhook(urlText: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const problem = urlProblemOf(urlText, options);
  if (problem) return Promise.resolve({ kind: "refused", error: `the URL ${problem}`, latencyMs: 0 });
  const url = new URL(urlText);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let isSettled = false;
    const settle = (result: SendResult) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: "POST",
        agent: false,
        lookup: checkedLookup(options.policy, options.resolver ?? systemResolver) as never,
        headers: { "content-type": "application/json", "user-agent": "Veridesk-Webhooks/1", "content-length": String(Buffer.byteLength(body)), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < MAX_READ_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_READ_BYTES) response.destroy();
        });
        const finish = () =>
          settle({
            kind: "answered",
            statusCode: response.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_CHARS),
            latencyMs: latency(),
          });
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${Math.round((options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000)} s`));
    }, options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    request.on("error", (error) => {
      if (error instanceof RefusedAddressError) settle({ kind: "refused", error: error.message, latencyMs: latency() });
      else settle({ kind: "failed", error: error.message.slice(0, 300), latencyMs: latency() });
    });
    request.end(body);
  });
}
