import { expect } from "@playwright/test";

/**
 * The sandbox's test API (no key), as the token specs use it. Specs share one sandbox process,
 * so nothing here resets it: calls are read from a mark onwards, messages by token, and a fault
 * is added for one call on one path.
 */

const sandboxUrl = process.env.SANDBOX_URL ?? "http://127.0.0.1:4010";

export const upstreamPaths = {
  fingerprint: "/api/fingerprint/initiate_finger_verification_sdk",
  remote: "/api/identification/initiate/token_verification",
} as const;

export type SandboxCall = {
  id: number;
  at: string;
  method: string;
  path: string;
  token?: string;
  status: number;
  contentType: string | null;
  fields: Record<string, unknown>;
  fault?: string;
};

export type OutboxMessage = { id: number; channel: "sms" | "email"; to: string; token: string; link: string; body: string; sentAt: string };

export type FaultMode = "delay" | "slow" | "hang" | "500" | "502-html" | "malformed-json" | "wrong-shape" | "401" | "429";

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${sandboxUrl}${path}`);
  expect(response.ok, `GET ${path}`).toBe(true);
  return (await response.json()) as T;
}

export async function listCalls(): Promise<SandboxCall[]> {
  return (await getJson<{ calls: SandboxCall[] }>("/sandbox/api/calls")).calls;
}

/** The id after which later calls count: take it before the action under test. */
export async function markCalls(): Promise<number> {
  const calls = await listCalls();
  return calls.reduce((highest, call) => Math.max(highest, call.id), 0);
}

export async function callsSince(mark: number, path?: string): Promise<SandboxCall[]> {
  return (await listCalls()).filter((call) => call.id > mark && (path === undefined || call.path === path));
}

export async function listOutbox(): Promise<OutboxMessage[]> {
  return (await getJson<{ messages: OutboxMessage[] }>("/sandbox/api/outbox")).messages;
}

export async function messagesFor(token: string): Promise<OutboxMessage[]> {
  return (await listOutbox()).filter((message) => message.token === token);
}

export async function injectFault(mode: FaultMode, path: string, count = 1): Promise<void> {
  await addFault({ mode, path, count });
}

/** A fault with every option: held to one token's calls, a delay, a 429's Retry-After. */
export async function addFault(fault: { mode: FaultMode; path?: string; token?: string; count?: number; delayMs?: number; retryAfterSeconds?: number }): Promise<void> {
  const response = await fetch(`${sandboxUrl}/sandbox/api/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(fault),
  });
  expect(response.ok, `add fault ${fault.mode}`).toBe(true);
}

/** How token_status answers a token without a result (sandbox/README.md); "message" is the default. */
export async function setNoResultShape(shape: "message" | "empty" | "html404" | "json404"): Promise<void> {
  const response = await fetch(`${sandboxUrl}/sandbox/api/behaviour`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tokenStatusNoResult: shape }),
  });
  expect(response.ok, `token_status answers ${shape}`).toBe(true);
}

export type SandboxTokenSummary = { token: string; createdAt: string };

/** Every token the sandbox has created (the provider's own record). */
export async function listSandboxTokens(): Promise<SandboxTokenSummary[]> {
  return (await getJson<{ tokens: SandboxTokenSummary[] }>("/sandbox/api/tokens")).tokens;
}

export async function clearFaults(): Promise<void> {
  await fetch(`${sandboxUrl}/sandbox/api/faults`, { method: "DELETE" });
}
