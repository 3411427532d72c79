import { describe, expect, it } from "vitest";
import { createTestSandbox, formBody } from "./test-support";

const SUCCESS_TRANSACTION = /^GH-STE-\d+-\d+-\d+$/;
const FAILURE_TRANSACTION = /^GH-INP-\d+-\d+-\d+$/;

describe("token lifecycle and result API", () => {
  it("turns a SUCCESSFUL result into the provider's token_status shape", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("GHANA_CARD");
    const response = await sandbox.sendJson(`/sandbox/api/tokens/${token}/result`, { status: "SUCCESSFUL" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ token, state: "used", result: { status: "SUCCESSFUL" } });

    const body = (await sandbox.getTokenStatus(token)) as { status: Record<string, string> };
    expect(body).toEqual({ status: { token, status: "SUCCESSFUL", transactionnumber: expect.stringMatching(SUCCESS_TRANSACTION) } });
    expect(Object.keys(body.status)).toEqual(["token", "status", "transactionnumber"]);
    expect(await sandbox.checkTokenStatus(token)).toEqual({ responsemessage: "Token has already been used" });
  });

  it("turns a FAILED result into the provider's shape with the default error text", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateFingerprintToken();
    await sandbox.sendJson(`/sandbox/api/tokens/${token}/result`, { status: "FAILED" });
    const body = (await sandbox.getTokenStatus(token)) as { status: Record<string, string> };
    expect(body).toEqual({
      status: {
        token,
        status: "FAILED",
        transactionnumber: expect.stringMatching(FAILURE_TRANSACTION),
        error: "Verification Unsuccesful",
      },
    });
    expect(Object.keys(body.status)).toEqual(["token", "status", "transactionnumber", "error"]);
  });

  it("keeps a given failure text", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER");
    await sandbox.sendJson(`/sandbox/api/tokens/${token}/result`, { status: "FAILED", error: "Face does not match" });
    expect(await sandbox.getTokenStatus(token)).toMatchObject({ status: { error: "Face does not match" } });
  });

  it("refuses a result for an unknown token, a finished token and an expired one with 409", async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.sendJson("/sandbox/api/tokens/NOSUCH12/result", { status: "SUCCESSFUL" })).status).toBe(409);

    const finished = await sandbox.generateRemoteToken("VOTER");
    await sandbox.sendJson(`/sandbox/api/tokens/${finished}/result`, { status: "SUCCESSFUL" });
    const again = await sandbox.sendJson(`/sandbox/api/tokens/${finished}/result`, { status: "FAILED" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ reason: "used" });

    const expired = await sandbox.generateRemoteToken("VOTER");
    await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 15 });
    const late = await sandbox.sendJson(`/sandbox/api/tokens/${expired}/result`, { status: "SUCCESSFUL" });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ reason: "expired" });
  });

  it("validates the result body", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER");
    const response = await sandbox.sendJson(`/sandbox/api/tokens/${token}/result`, { status: "OK" });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ errors: { status: expect.any(Array) } });
  });

  it("marks a token used without a result, then lets it finish", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("PASSPORT");
    const used = await sandbox.request(`/sandbox/api/tokens/${token}/use`, { method: "POST" });
    expect(await used.json()).toMatchObject({ token, state: "used" });
    expect((await sandbox.request(`/sandbox/api/tokens/${token}/use`, { method: "POST" })).status).toBe(409);
    expect((await sandbox.request("/sandbox/api/tokens/NOSUCH12/use", { method: "POST" })).status).toBe(409);

    const finished = await sandbox.sendJson(`/sandbox/api/tokens/${token}/result`, { status: "SUCCESSFUL" });
    expect(finished.status).toBe(200);
  });

  it("describes tokens with the documented record shape", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("DRIVER_LICENCE");
    const response = await sandbox.request(`/sandbox/api/tokens/${token}`);
    const record = (await response.json()) as { createdAt: string; expiresAt: string };
    expect(record).toEqual({
      token,
      kind: "remote",
      idType: "DRIVER_LICENCE",
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      state: "pending",
      request: expect.objectContaining({ driverid: "DL-0042-2019", dob: "1990-04-23" }),
    });
    expect(Date.parse(record.expiresAt) - Date.parse(record.createdAt)).toBe(15 * 60_000);
    expect((await sandbox.request("/sandbox/api/tokens/NOSUCH12")).status).toBe(404);
    expect(await (await sandbox.request("/sandbox/api/tokens")).json()).toEqual({ tokens: [expect.objectContaining({ token })] });
  });
});

describe("expiry on the sandbox clock", () => {
  it("reports a pending token invalid once 15 sandbox minutes have passed", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("GHANA_CARD");
    await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 14.9 });
    expect(await sandbox.checkTokenStatus(token)).toEqual({ responsemessage: "Pending Token" });

    await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 0.1 });
    expect(await sandbox.checkTokenStatus(token)).toEqual({ responsemessage: "Invalid Token" });
    expect(await sandbox.getTokenStatus(token)).toEqual({ responsemessage: "Invalid Token" });
    expect(sandbox.store.describeToken(token)?.state).toBe("expired");
    expect((await sandbox.request(`/sandbox/api/tokens/${token}/use`, { method: "POST" })).status).toBe(409);
  });

  it("expires fingerprint tokens too", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateFingerprintToken();
    await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 16 });
    expect(await sandbox.checkTokenStatus(token)).toEqual({ responsemessage: "Invalid Token" });
  });

  it("keeps a used token used, with its result, long after expiry", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER");
    await sandbox.sendJson(`/sandbox/api/tokens/${token}/result`, { status: "SUCCESSFUL" });
    await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 60 * 24 });
    expect(await sandbox.checkTokenStatus(token)).toEqual({ responsemessage: "Token has already been used" });
    expect(await sandbox.getTokenStatus(token)).toMatchObject({ status: { status: "SUCCESSFUL" } });
  });

  it("lets a verification started in time finish after the 15 minutes", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER");
    await sandbox.request(`/sandbox/api/tokens/${token}/use`, { method: "POST" });
    await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 20 });
    expect(await sandbox.checkTokenStatus(token)).toEqual({ responsemessage: "Token has already been used" });
    expect((await sandbox.sendJson(`/sandbox/api/tokens/${token}/result`, { status: "FAILED" })).status).toBe(200);
  });
});

describe("clock API", () => {
  it("moves the clock forward and reports the offset", async () => {
    const sandbox = createTestSandbox();
    const before = Date.now();
    const response = await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 30 });
    const { now } = (await response.json()) as { now: string };
    expect(Date.parse(now) - before).toBeGreaterThanOrEqual(30 * 60_000);
    expect(await (await sandbox.request("/sandbox/api/clock")).json()).toEqual({ now: expect.any(String), offsetMs: 30 * 60_000 });
  });

  it("refuses going backwards or a missing amount", async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: -5 })).status).toBe(422);
    expect((await sandbox.sendJson("/sandbox/api/clock", {})).status).toBe(422);
  });
});

describe("forced outcomes", () => {
  it("records an outcome for a given token", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER");
    const response = await sandbox.sendJson("/sandbox/api/outcomes", { token, status: "FAILED", error: "Spoof detected" });
    expect(response.status).toBe(200);
    expect(await (await sandbox.request("/sandbox/api/outcomes")).json()).toEqual({
      outcomes: [{ token, status: "FAILED", error: "Spoof detected" }],
    });
    expect(sandbox.store.finishAsCustomer(token, { status: "SUCCESSFUL" })).toMatchObject({
      ok: true,
      record: { result: { status: "FAILED", error: "Spoof detected" } },
    });
  });

  it("applies an outcome without a token to the next generated token only", async () => {
    const sandbox = createTestSandbox();
    await sandbox.sendJson("/sandbox/api/outcomes", { status: "FAILED" });
    const first = await sandbox.generateFingerprintToken();
    const second = await sandbox.generateFingerprintToken();
    expect(sandbox.store.finishAsCustomer(first, { status: "SUCCESSFUL" })).toMatchObject({ record: { result: { status: "FAILED" } } });
    expect(sandbox.store.finishAsCustomer(second, { status: "SUCCESSFUL" })).toMatchObject({
      record: { result: { status: "SUCCESSFUL" } },
    });
  });

  it("does not override an explicit result set through the result API", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER");
    await sandbox.sendJson("/sandbox/api/outcomes", { token, status: "FAILED" });
    await sandbox.sendJson(`/sandbox/api/tokens/${token}/result`, { status: "SUCCESSFUL" });
    expect(await sandbox.getTokenStatus(token)).toMatchObject({ status: { status: "SUCCESSFUL" } });
  });

  it("refuses an unknown token and a bad status", async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.sendJson("/sandbox/api/outcomes", { token: "NOSUCH12", status: "FAILED" })).status).toBe(404);
    expect((await sandbox.sendJson("/sandbox/api/outcomes", { status: "MAYBE" })).status).toBe(422);
  });
});

describe("reset", () => {
  it("clears tokens, outbox, calls, faults, outcomes and the clock", async () => {
    const sandbox = createTestSandbox();
    await sandbox.generateRemoteToken("VOTER", { send_token_to_client: "1" });
    await sandbox.sendJson("/sandbox/api/outcomes", { status: "FAILED" });
    await sandbox.sendJson("/sandbox/api/faults", { mode: "500", path: "/api/none" });
    await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 5 });

    expect((await sandbox.request("/sandbox/api/reset", { method: "POST" })).status).toBe(200);
    expect(sandbox.store.listTokens()).toEqual([]);
    expect(sandbox.store.listMessages()).toEqual([]);
    expect(sandbox.store.listCalls()).toEqual([]);
    expect(sandbox.store.listFaults()).toEqual([]);
    expect(sandbox.store.listForcedOutcomes()).toEqual([]);
    expect(sandbox.store.offsetMs).toBe(0);
  });
});

describe("controls page forms", () => {
  it("advance the clock and redirect back with a notice", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.request("/sandbox/controls/clock", formBody({ minutes: "16" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toMatch(/^\/sandbox\?notice=/);
    expect(sandbox.store.offsetMs).toBe(16 * 60_000);
  });

  it("add and clear faults", async () => {
    const sandbox = createTestSandbox();
    await sandbox.request("/sandbox/controls/faults", formBody({ mode: "delay", count: "2", path: "", delayMs: "50" }));
    expect(sandbox.store.listFaults()).toEqual([{ id: expect.any(Number), mode: "delay", count: 2, remaining: 2, delayMs: 50 }]);
    await sandbox.request("/sandbox/controls/faults/clear", { method: "POST" });
    expect(sandbox.store.listFaults()).toEqual([]);
  });

  it("force an outcome for the next token when the token input is empty", async () => {
    const sandbox = createTestSandbox();
    await sandbox.request("/sandbox/controls/outcome", formBody({ token: "", status: "FAILED", error: "" }));
    expect(sandbox.store.listForcedOutcomes()).toEqual([{ status: "FAILED" }]);
  });

  it("set a token's result and report refusals as an error", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER");
    await sandbox.request(`/sandbox/controls/tokens/${token}/result`, formBody({ status: "SUCCESSFUL" }));
    expect(sandbox.store.describeToken(token)?.result?.status).toBe("SUCCESSFUL");
    const refused = await sandbox.request(`/sandbox/controls/tokens/${token}/use`, { method: "POST" });
    expect(refused.headers.get("Location")).toMatch(/^\/sandbox\?error=/);
  });
});
