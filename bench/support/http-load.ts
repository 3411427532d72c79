/**
 * What the HTTP benchmarks share: closed-loop load over keep-alive connections (each worker sends
 * its next request when the last answered), samples of rate and latency, sign-in, and the
 * processes they start and stop. Benchmarks only; nothing here runs in `npm test`.
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export type Sample = { requests: number; seconds: number; latencies: number[]; statuses: Map<number, number>; bytes: number };

/** An agent for `baseUrl`: keep-alive, `connections` sockets, a self-signed certificate accepted (benchmarks only). */
export function agentFor(baseUrl: string, connections: number): http.Agent {
  return baseUrl.startsWith("https:")
    ? new https.Agent({ keepAlive: true, maxSockets: connections, rejectUnauthorized: false })
    : new http.Agent({ keepAlive: true, maxSockets: connections });
}

export async function load(
  target: { baseUrl: string; agent: http.Agent; connections: number },
  urlPath: string,
  cookie: string,
  conditional: boolean,
  durationSeconds: number,
): Promise<Sample> {
  const sample: Sample = { requests: 0, seconds: durationSeconds, latencies: [], statuses: new Map(), bytes: 0 };
  const endAt = performance.now() + durationSeconds * 1000;
  let etag: string | undefined;
  const worker = async () => {
    while (performance.now() < endAt) {
      const startedAt = performance.now();
      const answer = await get(target, urlPath, { cookie, ...(conditional && etag ? { "if-none-match": etag } : {}) });
      sample.latencies.push(performance.now() - startedAt);
      sample.requests += 1;
      sample.bytes += answer.bytes;
      sample.statuses.set(answer.status, (sample.statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 200 && answer.etag) etag = answer.etag;
      if (answer.status !== 200 && answer.status !== 304) throw new Error(`${urlPath} answered ${answer.status}`);
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: target.connections }, worker));
  sample.seconds = (performance.now() - startedAt) / 1000;
  return sample;
}

function get(target: { baseUrl: string; agent: http.Agent }, urlPath: string, headers: Record<string, string>): Promise<{ status: number; etag?: string; bytes: number }> {
  const client = target.baseUrl.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(`${target.baseUrl}${urlPath}`, { agent: target.agent, headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, bytes }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

/** Signs in through the HTTP endpoint; answers the Cookie header of the new session. */
export async function signIn(baseUrl: string, username: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/username`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl, ...headers },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

export const rate = (sample: Sample) => sample.requests / sample.seconds;

export function mergeStatuses(list: Sample[]): Map<number, number> {
  const merged = new Map<number, number>();
  for (const sample of list) for (const [status, n] of sample.statuses) merged.set(status, (merged.get(status) ?? 0) + n);
  return merged;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function run(command: string, args: string[], environment: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd: repoRoot, env: environment, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

export async function waitForUrl(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answered = await fetch(url).then((response) => response.status < 500, () => false);
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

export function loadAverage(): string {
  return os.loadavg().map((value) => value.toFixed(2)).join(", ");
}
