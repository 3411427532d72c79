import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "./app";
import { buildRemoteFields, createTestSandbox, toFormData } from "./test-support";

const CHECK_PATH = "/api/identification/check_token_status";

describe("fault injection", () => {
  it("answers 500 with a JSON body", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "500" });
    const response = await sandbox.request(`${CHECK_PATH}?token=ABC`, { headers: sandbox.authorised });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: "Internal Server Error" });
  });

  it("answers 502 with an nginx HTML page", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "502-html" });
    const response = await sandbox.request(`${CHECK_PATH}?token=ABC`, { headers: sandbox.authorised });
    expect(response.status).toBe(502);
    expect(response.headers.get("Content-Type")).toBe("text/html");
    expect(await response.text()).toContain("<center><h1>502 Bad Gateway</h1></center>");
  });

  it("answers 200 with truncated JSON", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "malformed-json" });
    const response = await sandbox.request(`${CHECK_PATH}?token=ABC`, { headers: sandbox.authorised });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    const text = await response.text();
    expect(text).toBe('{"responsemessage": "Pend');
    expect(() => JSON.parse(text)).toThrow();
  });

  it("answers 200 with JSON of the wrong shape", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "wrong-shape" });
    const response = await sandbox.request(`${CHECK_PATH}?token=ABC`, { headers: sandbox.authorised });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, result: [1, 2, 3] });
  });

  it("answers 401 although the key is right", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "401" });
    const response = await sandbox.request(`${CHECK_PATH}?token=ABC`, { headers: sandbox.authorised });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Unauthorized" });
  });

  it("applies to the next `count` calls only, then expires", async () => {
    const sandbox = createTestSandbox();
    const added = await sandbox.sendJson("/sandbox/api/faults", { mode: "500", count: 2 });
    expect(await added.json()).toEqual({ id: expect.any(Number), mode: "500", count: 2, remaining: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await sandbox.request(`${CHECK_PATH}?token=ABC`, { headers: sandbox.authorised })).status);
    }
    expect(statuses).toEqual([500, 500, 200]);
    expect(await (await sandbox.request("/sandbox/api/faults")).json()).toEqual({ faults: [] });
  });

  it("applies only to calls whose path starts with `path`", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "500", path: "/api/identification/token_status" });
    expect((await sandbox.request(`${CHECK_PATH}?token=ABC`, { headers: sandbox.authorised })).status).toBe(200);
    const faulted = await sandbox.request("/api/identification/token_status?token=ABC", { headers: sandbox.authorised });
    expect(faulted.status).toBe(500);
  });

  it("creates no token when a generation call is faulted", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "wrong-shape", count: 2 });
    await sandbox.postRemote(buildRemoteFields("GHANA_CARD", { send_token_to_client: "1" }));
    await sandbox.postFingerprint({ id_number: "GHA-123456789-0", referenceid: "r" });
    expect(sandbox.store.listTokens()).toEqual([]);
    expect(sandbox.store.listMessages()).toEqual([]);
  });

  it("logs the fault, the status sent and the fields received", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "502-html" });
    await sandbox.postRemote(buildRemoteFields("VOTER"));
    expect(sandbox.store.listCalls()).toEqual([
      expect.objectContaining({ status: 502, fault: "502-html", fields: buildRemoteFields("VOTER") }),
    ]);
  });

  it("lists, removes and clears faults", async () => {
    const sandbox = createTestSandbox();
    const first = (await (await sandbox.sendJson("/sandbox/api/faults", { mode: "500" })).json()) as { id: number };
    await sandbox.sendJson("/sandbox/api/faults", { mode: "hang", path: "/api/identification" });
    expect((await sandbox.request(`/sandbox/api/faults/${first.id}`, { method: "DELETE" })).status).toBe(200);
    expect(sandbox.store.listFaults().map((fault) => fault.mode)).toEqual(["hang"]);
    expect(await (await sandbox.request("/sandbox/api/faults", { method: "DELETE" })).json()).toEqual({ faults: [] });
    expect(sandbox.store.listFaults()).toEqual([]);
  });

  it("answers 429 with the Retry-After it was given, and without one when not", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "429", retryAfterSeconds: 7 });
    await sandbox.sendJson("/sandbox/api/faults", { mode: "429" });
    const first = await sandbox.request(`${CHECK_PATH}?token=ABC`, { headers: sandbox.authorised });
    expect(first.status).toBe(429);
    expect(first.headers.get("Retry-After")).toBe("7");
    expect(await first.json()).toEqual({ message: "Too Many Requests" });
    const second = await sandbox.request(`${CHECK_PATH}?token=ABC`, { headers: sandbox.authorised });
    expect(second.status).toBe(429);
    expect(second.headers.get("Retry-After")).toBeNull();
  });

  it("applies only to calls about `token` when one is named", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/faults", { mode: "500", token: "HELD1", count: 5 });
    expect((await sandbox.request(`${CHECK_PATH}?token=OTHER`, { headers: sandbox.authorised })).status).toBe(200);
    expect((await sandbox.request(`${CHECK_PATH}?token=HELD1`, { headers: sandbox.authorised })).status).toBe(500);
    expect(sandbox.store.listFaults()).toEqual([expect.objectContaining({ token: "HELD1", remaining: 4 })]);
  });

  it("refuses an unknown mode and a path not starting with /", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.sendJson("/sandbox/api/faults", { mode: "explode", path: "api" });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ errors: { mode: expect.any(Array), path: expect.any(Array) } });
  });
});

describe("faults over a real socket", () => {
  let running: RunningSandbox | undefined;
  const headers = { "X-API-AUTH": "sandbox-key" };

  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it("delays the answer, then answers normally", async () => {
    running = await startSandbox({ port: 0 });
    running.store.addFault({ mode: "delay", count: 1, delayMs: 300 });
    const startedAt = Date.now();
    const response = await fetch(`${running.url}${CHECK_PATH}?token=ABC`, { headers });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(280);
    expect(await response.json()).toEqual({ responsemessage: "Invalid Token" });
    expect(running.store.listCalls()).toEqual([expect.objectContaining({ fault: "delay", status: 200 })]);
  });

  it("hangs a generation call, still creating its token, until the client gives up", async () => {
    running = await startSandbox({ port: 0 });
    running.store.addFault({ mode: "hang", count: 1 });
    const call = fetch(`${running.url}/api/identification/initiate/token_verification`, {
      method: "POST",
      headers,
      body: toFormData(buildRemoteFields("GHANA_CARD", { send_token_to_client: "1" })),
      signal: AbortSignal.timeout(400),
    });
    await expect(call).rejects.toThrow();

    const [token] = running.store.listTokens();
    expect(token?.state).toBe("pending");
    expect(running.store.listMessages()).toHaveLength(1);
    expect(running.store.listCalls()).toEqual([expect.objectContaining({ fault: "hang", status: 0, token: token?.token })]);

    const check = await fetch(`${running.url}${CHECK_PATH}?token=${token?.token}`, { headers });
    expect(await check.json()).toEqual({ responsemessage: "Pending Token" });
  });

  it("answers a slow generation call late, its token created and its SMS sent at once", async () => {
    running = await startSandbox({ port: 0 });
    running.store.addFault({ mode: "slow", count: 1, delayMs: 400 });
    const startedAt = Date.now();
    const call = fetch(`${running.url}/api/identification/initiate/token_verification`, {
      method: "POST",
      headers,
      body: toFormData(buildRemoteFields("GHANA_CARD", { send_token_to_client: "1" })),
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(running.store.listTokens()).toHaveLength(1);
    expect(running.store.listMessages()).toHaveLength(1);
    const response = await call;
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(380);
    const { verificationtoken } = (await response.json()) as { verificationtoken: string };
    expect(verificationtoken).toBe(running.store.listTokens()[0]?.token);
    expect(running.store.listCalls()).toEqual([expect.objectContaining({ fault: "slow", status: 200 })]);
  });

  it("still shuts down promptly while a call hangs", async () => {
    running = await startSandbox({ port: 0 });
    running.store.addFault({ mode: "hang", count: 1 });
    const call = fetch(`${running.url}${CHECK_PATH}?token=ABC`, { headers });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closedAt = Date.now();
    await running.close();
    running = undefined;
    expect(Date.now() - closedAt).toBeLessThan(1_000);
    await expect(call).rejects.toThrow();
  });

  it("puts the address it listens on into verification links", async () => {
    running = await startSandbox({ port: 0 });
    const response = await fetch(`${running.url}/api/identification/initiate/token_verification`, {
      method: "POST",
      headers,
      body: toFormData(buildRemoteFields("PASSPORT", { send_token_to_client: "1" })),
    });
    const { verificationtoken } = (await response.json()) as { verificationtoken: string };
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.store.listMessages()[0]?.link).toBe(`${running.url}/sandbox/verify/${verificationtoken}`);
  });
});
