import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError, type ErrorCode } from "@/lib/errors";
import { createUpstreamClient, upstreamPaths, type UpstreamClientOptions } from "./client";
import { captureLogs } from "@/test/kit/upstream";
import type { RemoteTokenRequest, UpstreamClient } from "./types";

/**
 * Contract tests: the client against the sandbox running as its own process, as in production.
 * Ports 4210 (sandbox) and 4211 (kept free to stand for a service that is down).
 */

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const sandboxPort = 4210;
const unusedPort = 4211;
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const apiKey = "contract-test-key-7Qx93LmA";

const testIdNumbers = {
  ghanaCard: "GHA-987654321-5",
  voter: "VOTER4417209",
  passport: "G7654321",
  driver: "DL-KS-0099123",
  dob: "1988-07-14",
};

const logs = captureLogs();
let sandbox: ChildProcess | undefined;
let sandboxOutput = "";

type SandboxCall = {
  method: string;
  path: string;
  token?: string;
  status: number;
  contentType: string | null;
  fields: Record<string, unknown>;
  fault?: string;
};

beforeAll(async () => {
  // One node process (no npx/tsx wrapper processes) so killing it by its pid stops the sandbox.
  sandbox = spawn(process.execPath, ["--import", "tsx", "sandbox/server.ts"], {
    cwd: repoRoot,
    env: { ...process.env, SANDBOX_PORT: String(sandboxPort), SANDBOX_API_KEY: apiKey },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await waitForListening(sandbox);
});

afterAll(async () => {
  if (sandbox === undefined || sandbox.exitCode !== null) return;
  const exited = new Promise((resolve) => sandbox?.once("exit", resolve));
  sandbox.kill("SIGTERM");
  const forceKill = setTimeout(() => sandbox?.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(forceKill);
});

beforeEach(async () => {
  await control("POST", "/sandbox/api/reset");
});

function waitForListening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const giveUp = setTimeout(() => reject(new Error(`sandbox did not start within 60 s:\n${sandboxOutput}`)), 60_000);
    const onOutput = (chunk: Buffer) => {
      sandboxOutput += chunk.toString();
      if (sandboxOutput.includes(`Sandbox listening on ${sandboxUrl}`)) {
        clearTimeout(giveUp);
        resolve();
      }
    };
    child.stdout?.on("data", onOutput);
    child.stderr?.on("data", onOutput);
    child.once("exit", (code) => {
      clearTimeout(giveUp);
      reject(new Error(`sandbox exited with code ${code}:\n${sandboxOutput}`));
    });
  });
}

async function control<T = unknown>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox control ${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function listCalls(): Promise<SandboxCall[]> {
  return (await control<{ calls: SandboxCall[] }>("GET", "/sandbox/api/calls")).calls;
}

function injectFault(fault: { mode: string; count?: number; path?: string; delayMs?: number; retryAfterSeconds?: number }) {
  return control("POST", "/sandbox/api/faults", fault);
}

function buildClient(overrides: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  return createUpstreamClient({
    baseUrl: sandboxUrl,
    apiKey,
    timeoutMs: 5_000,
    logger: logs.logger,
    ...overrides,
  });
}

async function catchAppError(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  expect(JSON.stringify([error.message, error.userMessage, error.fieldErrors])).not.toMatch(sensitivePattern);
  return error;
}

const sensitivePattern = new RegExp(
  [apiKey, ...Object.values(testIdNumbers), "987654321"].map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
  "i",
);

const commonFields = {
  verificationtype: "3",
  phonenumber: "0541504140",
  referenceid: "0541504140",
  purpose: "Account opening",
} as const;

const ghanaCardRequest: RemoteTokenRequest = { ...commonFields, id_type: "GHANA_CARD", ghanacardnumber: testIdNumbers.ghanaCard };

async function issueRemoteToken(client = buildClient()): Promise<string> {
  return (await client.initiateRemoteToken(ghanaCardRequest)).token;
}

describe("token generation", () => {
  it("issues a fingerprint token from a Ghana Card number", async () => {
    const client = buildClient();

    const issued = await client.initiateFingerprintToken({
      idNumber: testIdNumbers.ghanaCard,
      referenceId: "0541504140",
      purpose: "Loan",
      branchName: "Accra Central",
    });

    expect(issued.token).toMatch(/^[A-Z0-9]{8,9}$/);
    expect(issued.message).toBe("Fingerprint session started successfully");
    const [call] = await listCalls();
    expect(call).toMatchObject({
      method: "POST",
      path: upstreamPaths.fingerprintToken,
      status: 200,
      contentType: "application/json",
      fields: { id_number: testIdNumbers.ghanaCard, referenceid: "0541504140", purpose: "Loan", branch_name: "Accra Central" },
    });
    await expect(client.checkTokenState(issued.token)).resolves.toEqual({ state: "pending", message: "Pending Token" });
  });

  it.each<{ request: RemoteTokenRequest; idFields: Record<string, string> }>([
    { request: ghanaCardRequest, idFields: { ghanacardnumber: testIdNumbers.ghanaCard } },
    { request: { ...commonFields, id_type: "VOTER", voterid: testIdNumbers.voter }, idFields: { voterid: testIdNumbers.voter } },
    {
      request: { ...commonFields, id_type: "PASSPORT", passportnumber: testIdNumbers.passport },
      idFields: { passportnumber: testIdNumbers.passport },
    },
    {
      request: { ...commonFields, id_type: "DRIVER_LICENCE", driverid: testIdNumbers.driver, dob: testIdNumbers.dob },
      idFields: { driverid: testIdNumbers.driver, dob: testIdNumbers.dob },
    },
  ])("issues a remote token for $request.id_type with exactly its fields", async ({ request, idFields }) => {
    const issued = await buildClient().initiateRemoteToken({ ...request, send_token_to_client: "1" });

    expect(issued).toEqual({
      token: expect.stringMatching(/^[A-Z0-9]{8,9}$/),
      phoneNumber: "0541504140",
      message: "Verification token generated successfully",
    });
    const [call] = await listCalls();
    expect(call?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(call?.fields).toEqual({ ...commonFields, id_type: request.id_type, send_token_to_client: "1", ...idFields });
    const { messages } = await control<{ messages: Array<{ channel: string; to: string; token: string }> }>(
      "GET",
      "/sandbox/api/outbox",
    );
    expect(messages).toEqual([expect.objectContaining({ channel: "sms", to: "0541504140", token: issued.token })]);
  });

  it("maps a 422 to UPSTREAM_REJECTED with field errors named as the service names them", async () => {
    const error = await catchAppError(
      buildClient().initiateRemoteToken({ ...ghanaCardRequest, ghanacardnumber: "GHA-12", phonenumber: "" }),
    );

    expect(error.code).toBe("UPSTREAM_REJECTED");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(["ghanacardnumber", "phonenumber"]);
    expect(error.fieldErrors?.ghanacardnumber?.[0]).toMatch(/GHA-XXXXXXXXX-X/);
  });
});

describe("token state and result", () => {
  it("follows a token from pending to used", async () => {
    const client = buildClient();
    const token = await issueRemoteToken(client);

    await expect(client.checkTokenState(token)).resolves.toEqual({ state: "pending", message: "Pending Token" });
    await control("POST", `/sandbox/api/tokens/${token}/use`);
    await expect(client.checkTokenState(token)).resolves.toEqual({ state: "used", message: "Token has already been used" });
  });

  it("reports an unknown token and an expired one as invalid", async () => {
    const client = buildClient();
    const token = await issueRemoteToken(client);
    await control("POST", "/sandbox/api/clock", { advanceMinutes: 16 });

    await expect(client.checkTokenState("NOSUCH99")).resolves.toMatchObject({ state: "invalid" });
    await expect(client.checkTokenState(token)).resolves.toMatchObject({ state: "invalid" });
    await expect(client.getTokenResult("NOSUCH99")).resolves.toEqual({ kind: "invalid" });
  });

  it("reads no result for a pending token and for a used one without outcome", async () => {
    const client = buildClient();
    const token = await issueRemoteToken(client);

    await expect(client.getTokenResult(token)).resolves.toEqual({ kind: "no-result", message: expect.any(String) });
    await control("POST", `/sandbox/api/tokens/${token}/use`);
    await expect(client.getTokenResult(token)).resolves.toMatchObject({ kind: "no-result" });
  });

  it("reads a SUCCESSFUL result", async () => {
    const client = buildClient();
    const token = await issueRemoteToken(client);
    await control("POST", `/sandbox/api/tokens/${token}/result`, { status: "SUCCESSFUL" });

    const result = await client.getTokenResult(token);

    expect(result).toEqual({ kind: "result", status: "SUCCESSFUL", transactionNumber: expect.stringMatching(/^GH-STE-/), token });
  });

  it("reads a FAILED result with its error text", async () => {
    const client = buildClient();
    const { token } = await client.initiateFingerprintToken({ idNumber: testIdNumbers.ghanaCard, referenceId: "0541504140" });
    await control("POST", `/sandbox/api/tokens/${token}/result`, { status: "FAILED", error: "Face did not match" });

    await expect(client.getTokenResult(token)).resolves.toEqual({
      kind: "result",
      status: "FAILED",
      transactionNumber: expect.stringMatching(/^GH-INP-/),
      error: "Face did not match",
      token,
    });
  });
});

describe("faults", () => {
  it.each<{ mode: string; code: ErrorCode; internal: RegExp }>([
    { mode: "500", code: "UPSTREAM_SERVER_ERROR", internal: /answered 500/ },
    { mode: "502-html", code: "UPSTREAM_SERVER_ERROR", internal: /answered 502 with an HTML page/ },
    { mode: "malformed-json", code: "UPSTREAM_MALFORMED", internal: /not valid JSON/ },
    { mode: "wrong-shape", code: "UPSTREAM_BAD_RESPONSE", internal: /unexpected shape/ },
    { mode: "401", code: "UPSTREAM_UNAUTHORIZED", internal: /answered 401/ },
  ])("maps the $mode fault to $code", async ({ mode, code, internal }) => {
    await injectFault({ mode, count: 1, path: upstreamPaths.remoteToken });

    const error = await catchAppError(buildClient().initiateRemoteToken(ghanaCardRequest));

    expect(error.code).toBe(code);
    expect(error.message).toMatch(internal);
  });

  it.each<{ mode: string; code: ErrorCode }>([
    { mode: "500", code: "UPSTREAM_SERVER_ERROR" },
    { mode: "502-html", code: "UPSTREAM_SERVER_ERROR" },
    { mode: "malformed-json", code: "UPSTREAM_MALFORMED" },
    { mode: "wrong-shape", code: "UPSTREAM_BAD_RESPONSE" },
    { mode: "401", code: "UPSTREAM_UNAUTHORIZED" },
    { mode: "429", code: "UPSTREAM_RATE_LIMITED" },
  ])("gives $code on a GET after one call when $mode persists", async ({ mode, code }) => {
    await injectFault({ mode, count: 5, path: upstreamPaths.tokenResult });

    const error = await catchAppError(buildClient().getTokenResult("ANYTOKEN1"));

    expect(error.code).toBe(code);
    expect(await listCalls()).toHaveLength(1);
  });

  it("reads the 429's Retry-After", async () => {
    await injectFault({ mode: "429", retryAfterSeconds: 12, path: upstreamPaths.tokenState });

    const error = await catchAppError(buildClient().checkTokenState("ANYTOKEN1"));

    expect([error.code, error.retryAfterMs]).toEqual(["UPSTREAM_RATE_LIMITED", 12_000]);
  });

  it("maps a wrong key to UPSTREAM_UNAUTHORIZED", async () => {
    const error = await catchAppError(buildClient({ apiKey: "not-the-key" }).checkTokenState("ANYTOKEN1"));

    expect(error.code).toBe("UPSTREAM_UNAUTHORIZED");
    expect(await listCalls()).toHaveLength(1);
  });

  it("maps a service that is down to UPSTREAM_NETWORK", async () => {
    const client = buildClient({ baseUrl: `http://127.0.0.1:${unusedPort}` });

    const error = await catchAppError(client.initiateRemoteToken(ghanaCardRequest));

    expect(error.code).toBe("UPSTREAM_NETWORK");
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("ends a hanging call at the configured timeout with UPSTREAM_TIMEOUT", async () => {
    await injectFault({ mode: "hang", path: upstreamPaths.remoteToken });
    const startedAt = performance.now();

    const error = await catchAppError(buildClient({ timeoutMs: 1_000 }).initiateRemoteToken(ghanaCardRequest));

    const elapsedMs = performance.now() - startedAt;
    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    expect(elapsedMs).toBeGreaterThanOrEqual(950);
    expect(elapsedMs).toBeLessThan(2_500);
    expect(await listCalls()).toHaveLength(1);
  });

  it("waits out a delay shorter than the timeout", async () => {
    const client = buildClient({ timeoutMs: 1_000 });
    const token = await issueRemoteToken(client);
    await injectFault({ mode: "delay", delayMs: 300, path: upstreamPaths.tokenState });

    await expect(client.checkTokenState(token)).resolves.toMatchObject({ state: "pending" });
  });
});

describe("one attempt per call, and a slow provider", () => {
  it("asks a GET once after a 500: the watcher's next poll is the retry", async () => {
    const client = buildClient();
    const token = await issueRemoteToken(client);
    await injectFault({ mode: "500", count: 1, path: upstreamPaths.tokenState });

    expect((await catchAppError(client.checkTokenState(token))).code).toBe("UPSTREAM_SERVER_ERROR");
    await expect(client.checkTokenState(token)).resolves.toMatchObject({ state: "pending" });

    const stateCalls = (await listCalls()).filter((call) => call.path === upstreamPaths.tokenState);
    expect(stateCalls.map((call) => [call.status, call.fault])).toEqual([
      [500, "500"],
      [200, undefined],
    ]);
  });

  it("never retries a POST after a 500", async () => {
    await injectFault({ mode: "500", count: 1, path: upstreamPaths.remoteToken });

    const error = await catchAppError(buildClient().initiateRemoteToken(ghanaCardRequest));

    expect(error.code).toBe("UPSTREAM_SERVER_ERROR");
    expect(await listCalls()).toHaveLength(1);
  });

  it("waits for a slow issuing answer within its own limit, longer than the status calls'", async () => {
    await injectFault({ mode: "slow", delayMs: 1_500, path: upstreamPaths.remoteToken });

    const issued = await buildClient({ timeoutMs: 500, issueTimeoutMs: 3_000 }).initiateRemoteToken(ghanaCardRequest);

    expect(issued.token).toMatch(/^[A-Z0-9]+$/);
    expect(await listCalls()).toEqual([expect.objectContaining({ fault: "slow", status: 200, token: issued.token })]);
  });

  it.each(["empty", "html404", "json404", "message"])(
    "reads token_status of a used token without a result as no result when the sandbox answers %s",
    async (shape) => {
      const client = buildClient();
      const token = await issueRemoteToken(client);
      await fetch(`${sandboxUrl}/sandbox/api/tokens/${token}/use`, { method: "POST" });
      await fetch(`${sandboxUrl}/sandbox/api/behaviour`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ tokenStatusNoResult: shape }),
      });

      await expect(client.checkTokenState(token)).resolves.toMatchObject({ state: "used" });
      await expect(client.getTokenResult(token)).resolves.toMatchObject({ kind: "no-result" });
    },
  );
});

describe("the log written during this run", () => {
  it("has a line per call and never the key or a test ID number", () => {
    const entries = logs.entries();
    expect(entries.length).toBeGreaterThan(20);
    expect(entries.every((entry) => typeof entry.durationMs === "number" && typeof entry.path === "string")).toBe(true);
    expect(logs.lines.join("")).not.toMatch(sensitivePattern);
  });
});
