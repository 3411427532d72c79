import { describe, expect, it } from "vitest";
import { ID_TYPES, type IdType } from "./store";
import { buildRemoteFields, createTestSandbox, ID_NUMBER_BY_TYPE, TEST_API_KEY, toFormData } from "./test-support";

const TOKEN_PATTERN = /^[A-Z0-9]{8,9}$/;

async function expectValidationErrors(response: Response, fields: string[]) {
  expect(response.status).toBe(422);
  const body = (await response.json()) as { message: string; errors: Record<string, string[]> };
  expect(body.message).toBe("Validation failed");
  expect(Object.keys(body.errors).sort()).toEqual([...fields].sort());
  for (const field of fields) expect(body.errors[field]?.join(" ")).toContain(field);
}

describe("authentication", () => {
  const paths = [
    ["POST", "/api/fingerprint/initiate_finger_verification_sdk"],
    ["POST", "/api/identification/initiate/token_verification"],
    ["GET", "/api/identification/check_token_status?token=ABCDEFGH"],
    ["GET", "/api/identification/token_status?token=ABCDEFGH"],
  ] as const;

  it.each(paths)("refuses %s %s without the X-API-AUTH header", async (method, path) => {
    const sandbox = createTestSandbox();
    const response = await sandbox.request(path, { method });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Unauthorized" });
  });

  it.each(paths)("refuses %s %s with a wrong key", async (method, path) => {
    const sandbox = createTestSandbox();
    const response = await sandbox.request(path, { method, headers: { "X-API-AUTH": `${TEST_API_KEY}-wrong` } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Unauthorized" });
  });

  it("does not create a token when the key is wrong", async () => {
    const sandbox = createTestSandbox();
    await sandbox.request("/api/identification/initiate/token_verification", {
      method: "POST",
      headers: { "X-API-AUTH": "nope" },
      body: toFormData(buildRemoteFields("GHANA_CARD")),
    });
    expect(sandbox.store.listTokens()).toEqual([]);
  });

  it("needs no key for the sandbox's own control routes", async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.request("/sandbox/api/tokens")).status).toBe(200);
  });
});

describe("POST /api/fingerprint/initiate_finger_verification_sdk", () => {
  it("generates a fingerprint token in the provider's response shape", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.postFingerprint({
      id_number: "GHA-123456789-0",
      referenceid: "0541504140",
      purpose: "Loan",
      branch_name: "Osu",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    const body = (await response.json()) as { message: string; data: { token: string } };
    expect(body).toEqual({ message: "Fingerprint session started successfully", data: { token: expect.any(String) } });
    expect(body.data.token).toMatch(TOKEN_PATTERN);
    expect(sandbox.store.describeToken(body.data.token)).toMatchObject({
      kind: "fingerprint",
      idType: "GHANA_CARD",
      state: "pending",
      request: { id_number: "GHA-123456789-0", referenceid: "0541504140", purpose: "Loan", branch_name: "Osu" },
    });
  });

  it("names every missing required field", async () => {
    const sandbox = createTestSandbox();
    await expectValidationErrors(await sandbox.postFingerprint({}), ["id_number", "referenceid"]);
  });

  it.each(["GHA-12345678-0", "GHA-1234567890-1", "gha-123456789-0", "GHA123456789-0", "GHA-123456789-01", " GHA-123456789-0"])(
    "refuses the Ghana Card number %j",
    async (idNumber) => {
      const sandbox = createTestSandbox();
      await expectValidationErrors(await sandbox.postFingerprint({ id_number: idNumber, referenceid: "x" }), ["id_number"]);
    },
  );

  it("refuses non-string values and a blank referenceid", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.postFingerprint({ id_number: 123, referenceid: "  ", purpose: 5 });
    await expectValidationErrors(response, ["id_number", "referenceid", "purpose"]);
  });

  it("refuses a body that is not JSON", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.request("/api/fingerprint/initiate_finger_verification_sdk", {
      method: "POST",
      headers: sandbox.authorised,
      body: toFormData({ id_number: "GHA-123456789-0", referenceid: "x" }),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ message: "Unsupported Media Type" });
  });

  it("answers 400 to malformed JSON", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.request("/api/fingerprint/initiate_finger_verification_sdk", {
      method: "POST",
      headers: { ...sandbox.authorised, "Content-Type": "application/json" },
      body: '{"id_number": ',
    });
    expect(response.status).toBe(400);
  });
});

describe("POST /api/identification/initiate/token_verification", () => {
  it.each(ID_TYPES)("generates a remote token for %s", async (idType) => {
    const sandbox = createTestSandbox();
    const response = await sandbox.postRemote(buildRemoteFields(idType, { phonenumber: "+233 54 150 4140" }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { verificationtoken: string };
    expect(body).toEqual({
      responsemessage: "Verification token generated successfully",
      phonenumber: "+233 54 150 4140",
      verificationtoken: expect.stringMatching(TOKEN_PATTERN),
    });
    expect(sandbox.store.describeToken(body.verificationtoken)).toMatchObject({
      kind: "remote",
      idType,
      state: "pending",
      request: ID_NUMBER_BY_TYPE[idType],
    });
  });

  it("accepts every optional field with valid values", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.postRemote(
      buildRemoteFields("GHANA_CARD", {
        send_token_to_client: "0",
        email: "ama@example.com",
        with_instructions: "0",
        require_location: "1",
        require_address_location: "0",
        verification_mode_id: "7",
      }),
    );
    expect(response.status).toBe(200);
  });

  it.each<[IdType, string[]]>([
    ["GHANA_CARD", ["ghanacardnumber"]],
    ["VOTER", ["voterid"]],
    ["PASSPORT", ["passportnumber"]],
    ["DRIVER_LICENCE", ["driverid", "dob"]],
  ])("requires the ID fields of %s", async (idType, idFields) => {
    const sandbox = createTestSandbox();
    const fields = buildRemoteFields(idType);
    for (const field of idFields) delete fields[field];
    await expectValidationErrors(await sandbox.postRemote(fields), idFields);
  });

  it("names every missing common field at once", async () => {
    const sandbox = createTestSandbox();
    await expectValidationErrors(await sandbox.postRemote({}), [
      "id_type",
      "verificationtype",
      "phonenumber",
      "referenceid",
      "purpose",
    ]);
  });

  it("treats blank values as missing", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.postRemote(buildRemoteFields("VOTER", { phonenumber: " ", purpose: "", voterid: "" }));
    await expectValidationErrors(response, ["phonenumber", "purpose", "voterid"]);
  });

  it.each(["NATIONAL_ID", "ghana_card", "GHANA CARD"])("refuses the id_type %j", async (idType) => {
    const sandbox = createTestSandbox();
    await expectValidationErrors(await sandbox.postRemote(buildRemoteFields("GHANA_CARD", { id_type: idType })), ["id_type"]);
  });

  it.each(["1", "2", "4", " 3", "three"])("refuses verificationtype %j", async (verificationType) => {
    const sandbox = createTestSandbox();
    const response = await sandbox.postRemote(buildRemoteFields("PASSPORT", { verificationtype: verificationType }));
    await expectValidationErrors(response, ["verificationtype"]);
  });

  it.each(["GHA-12345678-0", "GHA1234567890", "123456789-0", "GHA-123456789-X"])(
    "refuses the ghanacardnumber %j",
    async (cardNumber) => {
      const sandbox = createTestSandbox();
      const response = await sandbox.postRemote(buildRemoteFields("GHANA_CARD", { ghanacardnumber: cardNumber }));
      await expectValidationErrors(response, ["ghanacardnumber"]);
    },
  );

  it.each(["23-04-1990", "1990/04/23", "1990-4-23", "2023-02-30", "2023-13-01", "1990-04-31", ""])(
    "refuses the dob %j",
    async (dob) => {
      const sandbox = createTestSandbox();
      const response = await sandbox.postRemote(buildRemoteFields("DRIVER_LICENCE", { dob }));
      await expectValidationErrors(response, ["dob"]);
    },
  );

  it("accepts 29 February in a leap year", async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.postRemote(buildRemoteFields("DRIVER_LICENCE", { dob: "2000-02-29" }))).status).toBe(200);
  });

  it.each<[IdType, Record<string, string>]>([
    ["GHANA_CARD", { voterid: "123" }],
    ["VOTER", { ghanacardnumber: "GHA-123456789-0", passportnumber: "G1" }],
    ["PASSPORT", { driverid: "D1", dob: "1990-01-01" }],
    ["DRIVER_LICENCE", { ghanacardnumber: "GHA-123456789-0" }],
  ])("refuses the fields of another ID type with %s", async (idType, otherFields) => {
    const sandbox = createTestSandbox();
    const response = await sandbox.postRemote(buildRemoteFields(idType, otherFields));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(body.errors).sort()).toEqual(Object.keys(otherFields).sort());
    for (const field of Object.keys(otherFields)) expect(body.errors[field]?.[0]).toContain("unexpected");
  });

  it.each(["send_token_to_client", "with_instructions", "require_location", "require_address_location"])(
    "refuses %s other than 0 or 1",
    async (flag) => {
      const sandbox = createTestSandbox();
      await expectValidationErrors(await sandbox.postRemote(buildRemoteFields("VOTER", { [flag]: "yes" })), [flag]);
    },
  );

  it.each(["1", "3", "8", ""])("refuses verification_mode_id %j", async (mode) => {
    const sandbox = createTestSandbox();
    const response = await sandbox.postRemote(buildRemoteFields("VOTER", { verification_mode_id: mode }));
    await expectValidationErrors(response, ["verification_mode_id"]);
  });

  it.each(["ama", "ama@", "ama@example", "a b@example.com"])("refuses the email %j", async (email) => {
    const sandbox = createTestSandbox();
    await expectValidationErrors(await sandbox.postRemote(buildRemoteFields("VOTER", { email })), ["email"]);
  });

  it("names all bad fields in one answer", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.postRemote({
      id_type: "DRIVER_LICENCE",
      verificationtype: "2",
      phonenumber: "0541504140",
      referenceid: "ref",
      driverid: "D-1",
      dob: "1990-02-31",
      voterid: "V1",
      require_location: "true",
      email: "nope",
    });
    await expectValidationErrors(response, ["verificationtype", "purpose", "dob", "voterid", "require_location", "email"]);
  });

  it("refuses a field sent twice", async () => {
    const sandbox = createTestSandbox();
    const form = toFormData(buildRemoteFields("GHANA_CARD"));
    form.append("phonenumber", "0200000000");
    const response = await sandbox.request("/api/identification/initiate/token_verification", {
      method: "POST",
      headers: sandbox.authorised,
      body: form,
    });
    await expectValidationErrors(response, ["phonenumber"]);
  });

  it.each([
    ["application/json", JSON.stringify(buildRemoteFields("GHANA_CARD"))],
    ["application/x-www-form-urlencoded", new URLSearchParams(buildRemoteFields("GHANA_CARD")).toString()],
  ])("refuses a %s body with 415", async (contentType, body) => {
    const sandbox = createTestSandbox();
    const response = await sandbox.request("/api/identification/initiate/token_verification", {
      method: "POST",
      headers: { ...sandbox.authorised, "Content-Type": contentType },
      body,
    });
    expect(response.status).toBe(415);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(await response.json()).toMatchObject({ message: "Unsupported Media Type" });
    expect(sandbox.store.listTokens()).toEqual([]);
  });

  it("does not create a token when validation fails", async () => {
    const sandbox = createTestSandbox();
    await sandbox.postRemote(buildRemoteFields("GHANA_CARD", { verificationtype: "2" }));
    expect(sandbox.store.listTokens()).toEqual([]);
  });
});

describe("outbox", () => {
  it("sends an SMS with the link when send_token_to_client is 1", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("GHANA_CARD", { send_token_to_client: "1" });
    const { messages } = (await (await sandbox.request("/sandbox/api/outbox")).json()) as { messages: unknown[] };
    expect(messages).toEqual([
      {
        id: expect.any(Number),
        channel: "sms",
        to: "0541504140",
        token,
        link: `http://127.0.0.1:4999/sandbox/verify/${token}`,
        body: expect.stringContaining(`http://127.0.0.1:4999/sandbox/verify/${token}`),
        sentAt: expect.any(String),
      },
    ]);
  });

  it("also e-mails the link when an email is given", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER", { send_token_to_client: "1", email: "ama@example.com" });
    const messages = sandbox.store.listMessages();
    expect(messages.map((message) => [message.channel, message.to, message.token])).toEqual([
      ["sms", "0541504140", token],
      ["email", "ama@example.com", token],
    ]);
  });

  it("e-mails without an SMS when send_token_to_client is not 1", async () => {
    const sandbox = createTestSandbox();
    await sandbox.generateRemoteToken("PASSPORT", { email: "kofi@example.com" });
    await sandbox.generateRemoteToken("PASSPORT", { send_token_to_client: "0" });
    expect(sandbox.store.listMessages().map((message) => message.channel)).toEqual(["email"]);
  });

  it("sends nothing for a fingerprint token", async () => {
    const sandbox = createTestSandbox();
    await sandbox.generateFingerprintToken();
    expect(sandbox.store.listMessages()).toEqual([]);
  });
});

describe("status endpoints", () => {
  it("requires the token query parameter", async () => {
    const sandbox = createTestSandbox();
    for (const path of ["/api/identification/check_token_status", "/api/identification/token_status?token="]) {
      await expectValidationErrors(await sandbox.request(path, { headers: sandbox.authorised }), ["token"]);
    }
  });

  it("reports a new token of either kind as pending, with no result yet", async () => {
    const sandbox = createTestSandbox();
    for (const token of [await sandbox.generateRemoteToken("VOTER"), await sandbox.generateFingerprintToken()]) {
      expect(await sandbox.checkTokenStatus(token)).toEqual({ responsemessage: "Pending Token" });
      expect(await sandbox.getTokenStatus(token)).toEqual({ responsemessage: "No result yet for this token" });
    }
  });

  it("reports an unknown token as invalid on both endpoints", async () => {
    const sandbox = createTestSandbox();
    expect(await sandbox.checkTokenStatus("NOSUCH12")).toEqual({ responsemessage: "Invalid Token" });
    expect(await sandbox.getTokenStatus("NOSUCH12")).toEqual({ responsemessage: "Invalid Token" });
  });

  it("reports a token in progress as used, with no result yet", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("PASSPORT");
    expect((await sandbox.request(`/sandbox/api/tokens/${token}/use`, { method: "POST" })).status).toBe(200);
    expect(await sandbox.checkTokenStatus(token)).toEqual({ responsemessage: "Token has already been used" });
    expect(await sandbox.getTokenStatus(token)).toEqual({ responsemessage: "No result yet for this token" });
  });

  it("answers token_status for a token without a result in the shape the behaviour control sets", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("PASSPORT");
    await sandbox.request(`/sandbox/api/tokens/${token}/use`, { method: "POST" });
    const ask = () => sandbox.request(`/api/identification/token_status?token=${token}`, { headers: sandbox.authorised });

    await sandbox.sendJson("/sandbox/api/behaviour", { tokenStatusNoResult: "empty" });
    const empty = await ask();
    expect([empty.status, await empty.json()]).toEqual([200, {}]);

    await sandbox.sendJson("/sandbox/api/behaviour", { tokenStatusNoResult: "html404" });
    const page = await ask();
    expect(page.status).toBe(404);
    expect(page.headers.get("Content-Type")).toMatch(/text\/html/);
    expect(await page.text()).toContain("<h1>404 Not Found</h1>");

    await sandbox.sendJson("/sandbox/api/behaviour", { tokenStatusNoResult: "json404" });
    const json404 = await ask();
    expect([json404.status, await json404.json()]).toEqual([404, { message: "Not Found" }]);

    expect(await (await sandbox.request("/sandbox/api/behaviour")).json()).toEqual({ tokenStatusNoResult: "json404" });
    const refused = await sandbox.sendJson("/sandbox/api/behaviour", { tokenStatusNoResult: "teapot" });
    expect(refused.status).toBe(422);

    // A result, once there, is answered the documented way whatever the behaviour.
    await sandbox.sendJson(`/sandbox/api/tokens/${token}/result`, { status: "SUCCESSFUL" });
    const result = await ask();
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({ status: { token, status: "SUCCESSFUL" } });

    await sandbox.request("/sandbox/api/reset", { method: "POST" });
    expect(await (await sandbox.request("/sandbox/api/behaviour")).json()).toEqual({ tokenStatusNoResult: "message" });
  });

  it("answers unknown /api paths with a JSON 404", async () => {
    const sandbox = createTestSandbox();
    const response = await sandbox.request("/api/identification/nope", { headers: sandbox.authorised });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Not Found" });
  });
});

describe("call log", () => {
  it("records each call's fields, token, content type and status in order", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("GHANA_CARD", { send_token_to_client: "1" });
    await sandbox.postFingerprint({ id_number: "bad", referenceid: "r" });
    await sandbox.checkTokenStatus(token);
    await sandbox.request("/api/identification/token_status?token=ABC", { headers: { "X-API-AUTH": "wrong" } });

    const { calls } = (await (await sandbox.request("/sandbox/api/calls")).json()) as { calls: Record<string, unknown>[] };
    expect(calls).toEqual([
      {
        id: expect.any(Number),
        at: expect.any(String),
        method: "POST",
        path: "/api/identification/initiate/token_verification",
        contentType: expect.stringMatching(/^multipart\/form-data; boundary=/),
        fields: buildRemoteFields("GHANA_CARD", { send_token_to_client: "1" }),
        token,
        status: 200,
      },
      {
        id: expect.any(Number),
        at: expect.any(String),
        method: "POST",
        path: "/api/fingerprint/initiate_finger_verification_sdk",
        contentType: "application/json",
        fields: { id_number: "bad", referenceid: "r" },
        status: 422,
      },
      expect.objectContaining({ method: "GET", path: "/api/identification/check_token_status", token, status: 200, contentType: null }),
      expect.objectContaining({ path: "/api/identification/token_status", token: "ABC", status: 401 }),
    ]);
  });

  it("lists only calls after ?since=", async () => {
    const sandbox = createTestSandbox();
    await sandbox.checkTokenStatus("A1");
    await sandbox.checkTokenStatus("A2");
    const firstId = sandbox.store.listCalls()[0]?.id;
    const response = await sandbox.request(`/sandbox/api/calls?since=${firstId}`);
    const { calls } = (await response.json()) as { calls: { token: string }[] };
    expect(calls.map((call) => call.token)).toEqual(["A2"]);
  });

  it("does not log the sandbox's own routes", async () => {
    const sandbox = createTestSandbox();
    await sandbox.request("/sandbox/api/tokens");
    await sandbox.request("/sandbox");
    expect(sandbox.store.listCalls()).toEqual([]);
  });
});
