import { describe, expect, it } from "vitest";
import { AppError, type ErrorCode } from "@/lib/errors";
import { createUpstreamClient, upstreamPaths } from "./client";
import { captureLogs, scriptFetch, type ScriptedAnswer } from "@/test/kit/upstream";
import type { RemoteTokenRequest } from "./types";

const apiKey = "dGVzdC1wdWJsaWMtaWQ6dGVzdC1zZWNyZXQ=";
const ghanaCardNumber = "GHA-123456789-0";

function buildClient(...answers: ScriptedAnswer[]) {
  const { fetch, requests } = scriptFetch(...answers);
  const logs = captureLogs();
  const client = createUpstreamClient({
    baseUrl: "http://upstream.test/",
    apiKey,
    timeoutMs: 1_000,
    logger: logs.logger,
    fetch,
  });
  return { client, requests, logs };
}

async function catchAppError(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const ghanaCardRequest: RemoteTokenRequest = {
  id_type: "GHANA_CARD",
  ghanacardnumber: ghanaCardNumber,
  verificationtype: "3",
  phonenumber: "0541504140",
  referenceid: "0541504140",
  purpose: "Account opening",
};

const remoteTokenAnswer = {
  json: { responsemessage: "Token generated", phonenumber: "0541504140", verificationtoken: "K7Q3BMSA" },
};

describe("initiateFingerprintToken", () => {
  it("posts the service's JSON field names with the key header and reads the documented answer", async () => {
    const { client, requests } = buildClient({
      json: { message: "Fingerprint session started successfully", data: { token: "X7Q3BMSAB" } },
    });

    const result = await client.initiateFingerprintToken({
      idNumber: ghanaCardNumber,
      referenceId: "0541504140",
      purpose: "Loan",
      branchName: "Accra Central",
    });

    expect(result).toEqual({ token: "X7Q3BMSAB", message: "Fingerprint session started successfully" });
    const [request] = requests;
    expect(request?.method).toBe("POST");
    expect(request?.url.href).toBe(`http://upstream.test${upstreamPaths.fingerprintToken}`);
    expect(request?.headers.get("x-api-auth")).toBe(apiKey);
    expect(request?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(String(request?.body))).toEqual({
      id_number: ghanaCardNumber,
      referenceid: "0541504140",
      purpose: "Loan",
      branch_name: "Accra Central",
    });
  });

  it("omits optional fields that were not given", async () => {
    const { client, requests } = buildClient({ json: { data: { token: "X7Q3BMSAB" } } });

    await client.initiateFingerprintToken({ idNumber: ghanaCardNumber, referenceId: "0541504140", purpose: " " });

    expect(JSON.parse(String(requests[0]?.body))).toEqual({ id_number: ghanaCardNumber, referenceid: "0541504140" });
  });

  it.each([
    ["a top-level token", { token: "X7Q3BMSAB" }],
    ["a top-level verificationtoken", { verificationtoken: "X7Q3BMSAB", responsemessage: "ok" }],
    ["data.verificationtoken", { data: { verificationtoken: "X7Q3BMSAB" } }],
  ])("tolerates %s", async (_shape, json) => {
    const { client } = buildClient({ json });

    const result = await client.initiateFingerprintToken({ idNumber: ghanaCardNumber, referenceId: "ref" });

    expect(result.token).toBe("X7Q3BMSAB");
  });

  it("rejects an answer without any token as a bad response", async () => {
    const { client } = buildClient({ json: { message: "Fingerprint session started successfully", data: {} } });

    const error = await catchAppError(client.initiateFingerprintToken({ idNumber: ghanaCardNumber, referenceId: "ref" }));

    expect(error.code).toBe("UPSTREAM_BAD_RESPONSE");
  });

  it("is never retried", async () => {
    const { client, requests } = buildClient({ status: 500, json: { message: "boom" } }, remoteTokenAnswer);

    const error = await catchAppError(client.initiateFingerprintToken({ idNumber: ghanaCardNumber, referenceId: "ref" }));

    expect(error.code).toBe("UPSTREAM_SERVER_ERROR");
    expect(requests).toHaveLength(1);
  });
});

describe("initiateRemoteToken", () => {
  const idTypeCases: Array<{ request: RemoteTokenRequest; idFields: Record<string, string> }> = [
    { request: ghanaCardRequest, idFields: { ghanacardnumber: ghanaCardNumber } },
    { request: { ...ghanaCardRequest, id_type: "VOTER", voterid: "7654321098" }, idFields: { voterid: "7654321098" } },
    {
      request: { ...ghanaCardRequest, id_type: "PASSPORT", passportnumber: "G1234567" },
      idFields: { passportnumber: "G1234567" },
    },
    {
      request: { ...ghanaCardRequest, id_type: "DRIVER_LICENCE", driverid: "DL-00012345", dob: "1990-04-01" },
      idFields: { driverid: "DL-00012345", dob: "1990-04-01" },
    },
  ];

  it.each(idTypeCases)("sends exactly the fields of $request.id_type as multipart", async ({ request, idFields }) => {
    const { client, requests } = buildClient(remoteTokenAnswer);

    await client.initiateRemoteToken(request);

    const [sent] = requests;
    expect(sent?.method).toBe("POST");
    expect(sent?.url.pathname).toBe(upstreamPaths.remoteToken);
    expect(sent?.headers.get("x-api-auth")).toBe(apiKey);
    // fetch must set the multipart boundary itself.
    expect(sent?.headers.has("content-type")).toBe(false);
    expect(sent?.body).toBeInstanceOf(FormData);
    expect(Object.fromEntries(sent?.body as FormData)).toEqual({
      id_type: request.id_type,
      verificationtype: "3",
      phonenumber: "0541504140",
      referenceid: "0541504140",
      purpose: "Account opening",
      ...idFields,
    });
  });

  it("never sends a value left over from another id_type", async () => {
    const { client, requests } = buildClient(remoteTokenAnswer);
    const withLeftover = { ...ghanaCardRequest, voterid: "7654321098" } as RemoteTokenRequest;

    await client.initiateRemoteToken(withLeftover);

    expect((requests[0]?.body as FormData).has("voterid")).toBe(false);
  });

  it("sends the optional fields that were given", async () => {
    const { client, requests } = buildClient(remoteTokenAnswer);

    await client.initiateRemoteToken({
      ...ghanaCardRequest,
      send_token_to_client: "1",
      email: "ama@example.com",
      with_instructions: "0",
      require_location: "1",
      require_address_location: "0",
      verification_mode_id: "7",
    });

    expect(Object.fromEntries(requests[0]?.body as FormData)).toMatchObject({
      send_token_to_client: "1",
      email: "ama@example.com",
      with_instructions: "0",
      require_location: "1",
      require_address_location: "0",
      verification_mode_id: "7",
    });
  });

  it("returns the token, the phone number and the message", async () => {
    const { client } = buildClient(remoteTokenAnswer);

    await expect(client.initiateRemoteToken(ghanaCardRequest)).resolves.toEqual({
      token: "K7Q3BMSA",
      phoneNumber: "0541504140",
      message: "Token generated",
    });
  });

  it("falls back to the requested phone number when the answer leaves it out", async () => {
    const { client } = buildClient({ json: { verificationtoken: "K7Q3BMSA", extra: true } });

    await expect(client.initiateRemoteToken({ ...ghanaCardRequest, phonenumber: "0201234567" })).resolves.toEqual({
      token: "K7Q3BMSA",
      phoneNumber: "0201234567",
    });
  });

  it("rejects an answer without verificationtoken as a bad response", async () => {
    const { client } = buildClient({ json: { responsemessage: "Token generated", phonenumber: "0541504140" } });

    const error = await catchAppError(client.initiateRemoteToken(ghanaCardRequest));

    expect(error.code).toBe("UPSTREAM_BAD_RESPONSE");
    expect(error.message).toContain("verificationtoken");
  });

  it("maps a 422 to UPSTREAM_REJECTED with the service's field names, without echoing the ID number", async () => {
    const { client } = buildClient({
      status: 422,
      json: {
        message: "Validation failed",
        errors: { ghanacardnumber: [`${ghanaCardNumber} is not a valid card number`], phonenumber: "is required" },
      },
    });

    const error = await catchAppError(client.initiateRemoteToken(ghanaCardRequest));

    expect(error.code).toBe("UPSTREAM_REJECTED");
    expect(error.fieldErrors).toEqual({
      ghanacardnumber: ["[redacted] is not a valid card number"],
      phonenumber: ["is required"],
    });
    expect(JSON.stringify([error.message, error.userMessage, error.fieldErrors])).not.toContain("123456789");
  });

  it("is not retried after a timeout", async () => {
    const { fetch, requests } = scriptFetch("never-answers");
    const client = createUpstreamClient({ baseUrl: "http://upstream.test", apiKey, timeoutMs: 30, logger: captureLogs().logger, fetch });

    const error = await catchAppError(client.initiateRemoteToken(ghanaCardRequest));

    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    expect(requests).toHaveLength(1);
  });
});

describe("checkTokenState", () => {
  it.each([
    ["Pending Token", "pending"],
    ["  pending token ", "pending"],
    ["Token has already been used", "used"],
    ["TOKEN  HAS ALREADY BEEN USED", "used"],
    ["Invalid Token", "invalid"],
    ["invalid token", "invalid"],
  ])("reads %j as %s", async (responsemessage, state) => {
    const { client } = buildClient({ json: { responsemessage, extra: 1 } });

    await expect(client.checkTokenState("X7Q3BMSA")).resolves.toEqual({ state, message: responsemessage.trim() });
  });

  it("queries check_token_status with the token in the query string and the key header", async () => {
    const { client, requests } = buildClient({ json: { responsemessage: "Pending Token" } });

    await client.checkTokenState(" X7Q3 BM&SA ");

    expect(requests[0]?.method).toBe("GET");
    expect(requests[0]?.url.pathname).toBe(upstreamPaths.tokenState);
    expect(requests[0]?.url.searchParams.get("token")).toBe("X7Q3 BM&SA");
    expect(requests[0]?.headers.get("x-api-auth")).toBe(apiKey);
  });

  it.each([
    ["an unknown message", { responsemessage: "Token expired" }],
    ["no responsemessage", { message: "Pending Token" }],
    ["a responsemessage that is not text", { responsemessage: 3 }],
    ["an array", ["Pending Token"]],
  ])("rejects %s as a bad response, without retrying", async (_case, json) => {
    const { client, requests } = buildClient({ json });

    const error = await catchAppError(client.checkTokenState("X7Q3BMSA"));

    expect(error.code).toBe("UPSTREAM_BAD_RESPONSE");
    expect(requests).toHaveLength(1);
  });
});

describe("getTokenResult", () => {
  it("reads a successful result", async () => {
    const { client, requests } = buildClient({
      json: { status: { token: "X7Q3BMSA", status: "SUCCESSFUL", transactionnumber: "GH-STE-123456789-123456-1234" } },
    });

    await expect(client.getTokenResult("X7Q3BMSA")).resolves.toEqual({
      kind: "result",
      status: "SUCCESSFUL",
      transactionNumber: "GH-STE-123456789-123456-1234",
      token: "X7Q3BMSA",
    });
    expect(requests[0]?.url.pathname).toBe(upstreamPaths.tokenResult);
    expect(requests[0]?.url.searchParams.get("token")).toBe("X7Q3BMSA");
  });

  it("reads a failed result with its error text", async () => {
    const { client } = buildClient({
      json: {
        status: {
          token: "X7Q3BMSAB",
          status: "FAILED",
          transactionnumber: "GH-INP-12345678-1234567-123456",
          error: "Verification Unsuccesful",
          extra: "ignored",
        },
      },
    });

    await expect(client.getTokenResult("X7Q3BMSAB")).resolves.toEqual({
      kind: "result",
      status: "FAILED",
      transactionNumber: "GH-INP-12345678-1234567-123456",
      error: "Verification Unsuccesful",
      token: "X7Q3BMSAB",
    });
  });

  it("tolerates an outcome in lower case and a null error", async () => {
    const { client } = buildClient({
      json: { status: { token: "x7q3bmsa", status: "successful ", transactionnumber: "GH-STE-1", error: null } },
    });

    await expect(client.getTokenResult("X7Q3BMSA")).resolves.toMatchObject({ kind: "result", status: "SUCCESSFUL" });
  });

  it.each<[string, ScriptedAnswer, string | undefined]>([
    ["an empty object", { json: {} }, undefined],
    ["a null status", { json: { status: null } }, undefined],
    ["a null status next to null data", { json: { status: null, data: null } }, undefined],
    ["a responsemessage", { json: { responsemessage: "Pending Token" } }, "Pending Token"],
    ["a message", { json: { message: "No result yet for this token" } }, "No result yet for this token"],
    ["a status that is a message", { json: { status: "Token has not been used" } }, "Token has not been used"],
    ["a false status flag with a message", { json: { status: false, message: "No record found", data: null } }, "No record found"],
    ["a numeric status with a message", { json: { status: 200, message: "Pending" } }, "Pending"],
    ["a 404 saying the result was not found", { status: 404, json: { message: "Verification result not found" } }, '404 with "Verification result not found"'],
    ["a 400 saying pending", { status: 400, json: { responsemessage: "Pending Token" } }, '400 with "Pending Token"'],
    ["a 422 saying not yet verified", { status: 422, json: { status: "Token not yet verified" } }, '422 with "Token not yet verified"'],
    ["a gateway's 404 HTML page", { status: 404, text: "<html><h1>404 Not Found</h1></html>", contentType: "text/html" }, "404 with an HTML page instead of JSON"],
    ["a bare JSON 404 Not Found", { status: 404, json: { message: "Not Found" } }, '404 with "Not Found"'],
    ["a 422 about a field", { status: 422, json: { message: "Validation failed", errors: { token: ["is required"] } } }, '422 with "Validation failed"'],
    ["a 404 with no body", { status: 404 }, "404 with an empty body"],
  ])("reads %s as no result (the token is known to be used when this is asked)", async (_shape, answer, message) => {
    const { client } = buildClient(answer);

    await expect(client.getTokenResult("X7Q3BMSA")).resolves.toEqual(
      message === undefined ? { kind: "no-result" } : { kind: "no-result", message },
    );
  });

  it.each<[string, ScriptedAnswer]>([
    ["a responsemessage", { json: { responsemessage: "Invalid Token" } }],
    ["a status message", { json: { status: " invalid token" } }],
    ["a message", { json: { message: "INVALID TOKEN" } }],
    ["a 404", { status: 404, json: { message: "Invalid Token" } }],
    ["a 400", { status: 400, json: { responsemessage: "Invalid Token" } }],
  ])("reads Invalid Token in %s as invalid", async (_shape, answer) => {
    const { client } = buildClient(answer);

    await expect(client.getTokenResult("X7Q3BMSA")).resolves.toEqual({ kind: "invalid" });
  });

  it.each<[string, unknown]>([
    ["a status object with an unknown outcome", { status: { token: "X7Q3BMSA", status: "DONE", transactionnumber: "GH-1" } }],
    ["a status object without transaction number", { status: { token: "X7Q3BMSA", status: "SUCCESSFUL" } }],
    ["an empty status object", { status: {} }],
    ["an outcome outside a status object", { status: "SUCCESSFUL" }],
    ["unknown fields only", { result: { ok: true } }],
    ["an array", [{ status: "SUCCESSFUL" }]],
    ["a bare string", "Pending Token"],
    ["a null", null],
  ])("rejects %s as a bad response", async (_shape, json) => {
    const { client } = buildClient({ json });

    const error = await catchAppError(client.getTokenResult("X7Q3BMSA"));

    expect(error.code).toBe("UPSTREAM_BAD_RESPONSE");
  });

  it("rejects a result filed under another token", async () => {
    const { client } = buildClient({ json: { status: { token: "OTHER123", status: "SUCCESSFUL", transactionnumber: "GH-STE-1" } } });

    const error = await catchAppError(client.getTokenResult("X7Q3BMSA"));

    expect(error.code).toBe("UPSTREAM_BAD_RESPONSE");
    expect(error.message).toContain("OTHER123");
  });

  it.each<[string, ScriptedAnswer, ErrorCode]>([
    ["a 401", { status: 401, json: { message: "Unauthorized" } }, "UPSTREAM_UNAUTHORIZED"],
    ["a 403 HTML page", { status: 403, text: "<h1>Forbidden</h1>", contentType: "text/html" }, "UPSTREAM_UNAUTHORIZED"],
    ["a 429", { status: 429, json: { message: "Too Many Requests" } }, "UPSTREAM_RATE_LIMITED"],
    ["a 500", { status: 500, json: {} }, "UPSTREAM_SERVER_ERROR"],
    ["a 502 HTML page", { status: 502, text: "<html>502</html>", contentType: "text/html" }, "UPSTREAM_SERVER_ERROR"],
    ["a 200 HTML page", { text: "<html>maintenance</html>", contentType: "text/html" }, "UPSTREAM_MALFORMED"],
  ])("still treats %s as a fault, never as no result", async (_shape, answer, code) => {
    const { client } = buildClient(answer);

    const error = await catchAppError(client.getTokenResult("X7Q3BMSA"));

    expect(error.code).toBe(code);
  });
});

describe("error mapping", () => {
  it.each<[string, ScriptedAnswer, ErrorCode]>([
    ["a network failure", "network-error", "UPSTREAM_NETWORK"],
    ["401", { status: 401, json: { message: "Unauthorized" } }, "UPSTREAM_UNAUTHORIZED"],
    ["403 with HTML", { status: 403, text: "<h1>Forbidden</h1>", contentType: "text/html" }, "UPSTREAM_UNAUTHORIZED"],
    ["400", { status: 400, json: { message: "Bad request" } }, "UPSTREAM_REJECTED"],
    ["500", { status: 500, json: { message: "Server Error" } }, "UPSTREAM_SERVER_ERROR"],
    ["503 with no body", { status: 503 }, "UPSTREAM_SERVER_ERROR"],
    ["429", { status: 429, json: { message: "Too Many Requests" } }, "UPSTREAM_RATE_LIMITED"],
    ["200 with HTML", { text: "<!doctype html><p>Maintenance</p>", contentType: "text/html" }, "UPSTREAM_MALFORMED"],
    ["200 with broken JSON", { text: '{"responsemessage": "Pend', contentType: "application/json" }, "UPSTREAM_MALFORMED"],
    ["200 with an empty body", { text: "" }, "UPSTREAM_MALFORMED"],
    ["200 with JSON of the wrong shape", { json: { unexpected: true } }, "UPSTREAM_BAD_RESPONSE"],
  ])("maps %s to its own code", async (_case, answer, code) => {
    const { client } = buildClient(answer);

    const error = await catchAppError(client.initiateRemoteToken(ghanaCardRequest));

    expect(error.code).toBe(code);
  });

  it("names the system error of a network failure", async () => {
    const { client } = buildClient("network-error");

    const error = await catchAppError(client.initiateRemoteToken(ghanaCardRequest));

    expect(error.message).toContain("ECONNREFUSED");
  });

  it("says when a 5xx body was an HTML page", async () => {
    const { client } = buildClient({ status: 502, text: "<html><body>Bad Gateway</body></html>", contentType: "text/html" });

    const error = await catchAppError(client.initiateRemoteToken(ghanaCardRequest));

    expect(error.code).toBe("UPSTREAM_SERVER_ERROR");
    expect(error.message).toMatch(/HTML/);
  });

  it("tells a non-JSON body apart from an HTML page in the internal message", async () => {
    const html = await catchAppError(buildClient({ text: "<html></html>", contentType: "text/html" }).client.initiateRemoteToken(ghanaCardRequest));
    const text = await catchAppError(buildClient({ text: "{oops", contentType: "application/json" }).client.initiateRemoteToken(ghanaCardRequest));

    expect(html.message).toMatch(/HTML page/);
    expect(text.message).toMatch(/not valid JSON \(content-type application\/json\)/);
  });

  it("shows the service's general message to the teller when no field carries one", async () => {
    const { client } = buildClient({ status: 400, json: { message: "Phone number is not a Ghana mobile number" } });

    const error = await catchAppError(client.initiateRemoteToken(ghanaCardRequest));

    expect(error.userMessage).toBe("The verification service refused the request: Phone number is not a Ghana mobile number");
    expect(error.fieldErrors).toBeUndefined();
  });

  it("times out a fetch that never answers at the configured limit", async () => {
    const { fetch } = scriptFetch("never-answers");
    const client = createUpstreamClient({
      baseUrl: "http://upstream.test",
      apiKey,
      timeoutMs: 50,
      logger: captureLogs().logger,
      fetch,
    });
    const startedAt = performance.now();

    const error = await catchAppError(client.checkTokenState("X7Q3BMSA"));

    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(45);
    expect(performance.now() - startedAt).toBeLessThan(1_000);
  });

  it("refuses a lookup without a token before calling the service", async () => {
    const { client, requests } = buildClient({ json: { responsemessage: "Pending Token" } });

    const error = await catchAppError(client.getTokenResult("  "));

    expect(error.code).toBe("INTERNAL");
    expect(requests).toHaveLength(0);
  });

  it("refuses a base URL that is not a URL", () => {
    expect(() =>
      createUpstreamClient({ baseUrl: "not a url", apiKey, timeoutMs: 10, logger: captureLogs().logger }),
    ).toThrow(expect.objectContaining({ code: "CONFIGURATION" }));
  });
});

describe("timeouts and the one attempt per call", () => {
  it("gives the issuing POSTs their own, longer limit than the status GETs", async () => {
    const { fetch, requests } = scriptFetch("never-answers");
    const client = createUpstreamClient({ baseUrl: "http://upstream.test", apiKey, timeoutMs: 30, issueTimeoutMs: 150, logger: captureLogs().logger, fetch });

    let startedAt = performance.now();
    expect((await catchAppError(client.checkTokenState("X7Q3BMSA"))).code).toBe("UPSTREAM_TIMEOUT");
    const statusElapsed = performance.now() - startedAt;
    startedAt = performance.now();
    expect((await catchAppError(client.initiateRemoteToken(ghanaCardRequest))).code).toBe("UPSTREAM_TIMEOUT");
    const issueElapsed = performance.now() - startedAt;

    expect(statusElapsed).toBeLessThan(140);
    expect(issueElapsed).toBeGreaterThanOrEqual(145);
    expect(requests).toHaveLength(2);
  });

  it.each<[string, ScriptedAnswer]>([
    ["a 500", { status: 500, json: { message: "boom" } }],
    ["a 502 HTML page", { status: 502, text: "<html></html>", contentType: "text/html" }],
    ["a network failure", "network-error"],
    ["a non-JSON body", { text: "{oops" }],
    ["a timeout", "never-answers"],
  ])("asks a status GET once after %s: the watcher's next poll is the retry", async (_case, firstAnswer) => {
    const { fetch, requests } = scriptFetch(firstAnswer, { json: { responsemessage: "Pending Token" } });
    const client = createUpstreamClient({ baseUrl: "http://upstream.test", apiKey, timeoutMs: 30, logger: captureLogs().logger, fetch });

    await expect(client.checkTokenState("X7Q3BMSA")).rejects.toBeInstanceOf(AppError);
    expect(requests).toHaveLength(1);
  });

  it.each<[string, string | undefined, number | undefined]>([
    ["delay-seconds", "7", 7_000],
    // Computed when the cases are collected, so some time passes before the call: a wide margin.
    ["an HTTP date", new Date(Date.now() + 60_000).toUTCString(), 60_000],
    ["no header", undefined, undefined],
    ["an unreadable header", "soon", undefined],
    ["a day", "86400", 600_000],
  ])("reads a 429's Retry-After given as %s", async (_case, header, expectedMs) => {
    const { fetch } = scriptFetch({ status: 429, json: { message: "Too Many Requests" }, headers: header === undefined ? {} : { "retry-after": header } });
    const client = createUpstreamClient({ baseUrl: "http://upstream.test", apiKey, timeoutMs: 100, logger: captureLogs().logger, fetch });

    const error = await catchAppError(client.checkTokenState("X7Q3BMSA"));

    expect(error.code).toBe("UPSTREAM_RATE_LIMITED");
    if (expectedMs === undefined) expect(error.retryAfterMs).toBeUndefined();
    else expect(error.retryAfterMs).toBeGreaterThanOrEqual(expectedMs - 10_000);
    if (expectedMs !== undefined) expect(error.retryAfterMs).toBeLessThanOrEqual(expectedMs);
  });
});

describe("logging", () => {
  it("writes one structured line per call with method, path, status, duration, timeout and error code", async () => {
    const { client, logs } = buildClient({ status: 500, json: {} }, { json: { responsemessage: "Used" } });

    await catchAppError(client.checkTokenState("X7Q3BMSA"));
    await catchAppError(client.checkTokenState("X7Q3BMSA"));

    const entries = logs.entries();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      method: "GET",
      path: upstreamPaths.tokenState,
      token: "X7Q3BMSA",
      status: 500,
      timeoutMs: 1_000,
      errorCode: "UPSTREAM_SERVER_ERROR",
    });
    expect(entries[0]?.durationMs).toEqual(expect.any(Number));
    expect(entries[1]).toMatchObject({ status: 200, errorCode: "UPSTREAM_BAD_RESPONSE" });
  });

  it("puts the id of the staff request it serves on every line", async () => {
    const { fetch } = scriptFetch({ status: 500, json: {} }, { json: { responsemessage: "Used" } });
    const logs = captureLogs();
    const client = createUpstreamClient({
      baseUrl: "http://upstream.test/",
      apiKey,
      timeoutMs: 1_000,
      logger: logs.logger,
      requestIdOf: () => "req-42",
      fetch,
    });

    await catchAppError(client.checkTokenState("X7Q3BMSA"));
    await catchAppError(client.checkTokenState("X7Q3BMSA"));

    expect(logs.entries().map((entry) => entry.requestId)).toEqual(["req-42", "req-42"]);
  });

  it("logs a success with the issued token", async () => {
    const { client, logs } = buildClient(remoteTokenAnswer);

    await client.initiateRemoteToken(ghanaCardRequest);

    expect(logs.entries()).toEqual([
      expect.objectContaining({ level: 30, method: "POST", status: 200, issuedToken: "K7Q3BMSA", idType: "GHANA_CARD" }),
    ]);
  });

  it("never writes the key, an ID number or the request body, whatever the service answers", async () => {
    const answers: ScriptedAnswer[] = [
      { status: 422, json: { message: `Card ${ghanaCardNumber} refused for key ${apiKey}`, errors: { ghanacardnumber: [ghanaCardNumber] } } },
      { status: 400, json: { message: "GHA 123456789 0 unknown" } },
      { status: 500, text: `<html>${ghanaCardNumber}</html>`, contentType: "text/html" },
      "network-error",
      remoteTokenAnswer,
    ];
    const { client, logs } = buildClient(...answers);

    for (let call = 0; call < answers.length; call += 1) {
      await client.initiateRemoteToken(ghanaCardRequest).catch((error: unknown) => {
        const appError = error as AppError;
        expect(JSON.stringify([appError.message, appError.userMessage, appError.fieldErrors])).not.toMatch(/123456789|dGVzdC1w/);
      });
      await client.initiateFingerprintToken({ idNumber: ghanaCardNumber, referenceId: "ref" }).catch(() => undefined);
    }

    const written = logs.lines.join("");
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(written).not.toContain(apiKey);
    expect(written).not.toContain("123456789");
    expect(written).not.toContain("0541504140");
  });
});

describe("onCallSettled (the metrics' view of each call)", () => {
  it("names the endpoint and says ok, or the error code, with the call's duration", async () => {
    const settled: unknown[] = [];
    const { fetch } = scriptFetch({ json: { responsemessage: "Invalid Token" } }, { status: 500, text: "boom", contentType: "text/plain" });
    const client = createUpstreamClient({ baseUrl: "http://upstream.test/", apiKey, timeoutMs: 1_000, logger: captureLogs().logger, fetch, onCallSettled: (call) => settled.push(call) });

    await client.checkTokenState("X7Q3BMSA");
    await catchAppError(client.checkTokenState("X7Q3BMSA"));

    expect(settled).toEqual([
      { endpoint: "tokenState", outcome: "ok", durationMs: expect.any(Number) },
      { endpoint: "tokenState", outcome: "UPSTREAM_SERVER_ERROR", durationMs: expect.any(Number) },
    ]);
  });
});
