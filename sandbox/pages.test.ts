import { describe, expect, it } from "vitest";
import { createTestSandbox, formBody } from "./test-support";

async function readPage(response: Response) {
  const text = await response.text();
  return { status: response.status, text, heading: /<h1>(.*?)<\/h1>/.exec(text)?.[1] };
}

describe("verification link page", () => {
  it("walks instructions → confirmation → capture → done, spending the token at capture", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("GHANA_CARD");
    const base = `/sandbox/verify/${token}`;

    expect((await readPage(await sandbox.request(base))).heading).toBe("Before you start");
    expect((await readPage(await sandbox.request(`${base}?step=confirm`))).heading).toBe("Confirm and start");
    expect(sandbox.store.describeToken(token)?.state).toBe("pending");

    const capture = await readPage(await sandbox.request(`${base}?step=capture`));
    expect(capture.heading).toBe("Verify your identity");
    expect(capture.text).toContain("Full KYC");
    expect(sandbox.store.describeToken(token)?.state).toBe("used");

    const finished = await sandbox.request(`${base}/finish`, formBody({ outcome: "SUCCESSFUL" }));
    expect(finished.status).toBe(303);
    expect(finished.headers.get("Location")).toBe(`${base}?step=done`);
    const done = await readPage(await sandbox.request(`${base}?step=done`));
    expect(done.text).toContain("Verification succeeded");
    expect(done.text).toContain(sandbox.store.describeToken(token)?.result?.transactionNumber ?? "missing");

    const revisit = await readPage(await sandbox.request(base));
    expect(revisit.heading).toBe("This link has already been used");
  });

  it("goes straight to a liveness-only capture with with_instructions=0", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER", { with_instructions: "0", verification_mode_id: "7" });
    const page = await readPage(await sandbox.request(`/sandbox/verify/${token}`));
    expect(page.heading).toBe("Verify your identity");
    expect(page.text).toContain("Liveness only");
  });

  it("asks for location and home address when requested, and refuses finishing without them", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("PASSPORT", {
      with_instructions: "0",
      require_location: "1",
      require_address_location: "1",
    });
    const page = await readPage(await sandbox.request(`/sandbox/verify/${token}`));
    expect(page.text).toMatch(/<label for="location">Location<\/label>/);
    expect(page.text).toMatch(/<label for="home-address">Home address<\/label>/);

    const refused = await readPage(await sandbox.request(`/sandbox/verify/${token}/finish`, formBody({ outcome: "FAILED" })));
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("Please fill in: Location, Home address.");

    await sandbox.request(
      `/sandbox/verify/${token}/finish`,
      formBody({ outcome: "FAILED", reason: "Blurry selfie", location: "5.6037, -0.1870", homeAddress: "GA-123-4567" }),
    );
    expect(sandbox.store.describeToken(token)).toMatchObject({
      result: { status: "FAILED", error: "Blurry selfie" },
      capture: { location: "5.6037, -0.1870", homeAddress: "GA-123-4567" },
    });
  });

  it("lets a forced outcome win over the button pressed", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER", { with_instructions: "0" });
    await sandbox.sendJson("/sandbox/api/outcomes", { token, status: "FAILED" });
    await sandbox.request(`/sandbox/verify/${token}`);
    await sandbox.request(`/sandbox/verify/${token}/finish`, formBody({ outcome: "SUCCESSFUL" }));
    expect(sandbox.store.describeToken(token)?.result).toMatchObject({ status: "FAILED", error: "Verification Unsuccesful" });
  });

  it("explains unknown, expired and fingerprint tokens", async () => {
    const sandbox = createTestSandbox();
    expect(await readPage(await sandbox.request("/sandbox/verify/NOSUCH12"))).toMatchObject({
      status: 404,
      heading: "This link is not valid",
    });
    const fingerprint = await sandbox.generateFingerprintToken();
    expect((await readPage(await sandbox.request(`/sandbox/verify/${fingerprint}`))).heading).toBe("Not a verification link");

    const token = await sandbox.generateRemoteToken("VOTER");
    await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 15 });
    const expired = await readPage(await sandbox.request(`/sandbox/verify/${token}?step=capture`));
    expect(expired).toMatchObject({ status: 410, heading: "This link has expired" });
    expect(sandbox.store.describeToken(token)?.state).toBe("expired");
  });

  it("escapes request values shown on the page", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER", { purpose: "<script>alert(1)</script>" });
    const page = await readPage(await sandbox.request(`/sandbox/verify/${token}?step=confirm`));
    expect(page.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page.text).not.toContain("<script>alert");
  });
});

describe("fingerprint scanner page", () => {
  it("captures a pending fingerprint token and finishes it", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateFingerprintToken();
    expect((await readPage(await sandbox.request("/sandbox/scanner"))).heading).toBe("Fingerprint scanner");

    const captured = await sandbox.request("/sandbox/scanner/capture", formBody({ token: ` ${token.toLowerCase()} ` }));
    expect(captured.headers.get("Location")).toBe(`/sandbox/scanner/${token}`);
    expect(sandbox.store.describeToken(token)?.state).toBe("used");
    expect((await readPage(await sandbox.request(`/sandbox/scanner/${token}`))).heading).toBe("Fingerprint captured");

    await sandbox.request(`/sandbox/scanner/${token}/finish`, formBody({ outcome: "FAILED" }));
    const done = await readPage(await sandbox.request(`/sandbox/scanner/${token}`));
    expect(done.text).toContain("Verification failed");
    expect(await sandbox.getTokenStatus(token)).toMatchObject({ status: { status: "FAILED" } });
  });

  it.each([
    ["", "Enter a token."],
    ["NOSUCH12", "No token NOSUCH12 exists."],
  ])("refuses the token %j", async (token, message) => {
    const sandbox = createTestSandbox();
    const page = await readPage(await sandbox.request("/sandbox/scanner/capture", formBody({ token })));
    expect(page.status).toBe(422);
    expect(page.text).toContain(message);
  });

  it("refuses remote, expired and used tokens", async () => {
    const sandbox = createTestSandbox();
    const remote = await sandbox.generateRemoteToken("VOTER");
    const used = await sandbox.generateFingerprintToken();
    await sandbox.request(`/sandbox/api/tokens/${used}/use`, { method: "POST" });
    const expired = await sandbox.generateFingerprintToken();
    await sandbox.sendJson("/sandbox/api/clock", { advanceMinutes: 15 });

    const messageFor = async (token: string) =>
      (await readPage(await sandbox.request("/sandbox/scanner/capture", formBody({ token })))).text;
    expect(await messageFor(remote)).toContain("remote-verification token");
    expect(await messageFor(used)).toContain("has already been used");
    expect(await messageFor(expired)).toContain("has expired");
  });
});

describe("operator pages", () => {
  it("list tokens, faults and calls on the controls page", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER", { send_token_to_client: "1" });
    await sandbox.sendJson("/sandbox/api/faults", { mode: "hang", path: "/api/identification/token_status" });
    const page = await readPage(await sandbox.request("/sandbox?notice=Done"));
    expect(page.heading).toBe("Sandbox controls");
    expect(page.text).toContain(token);
    expect(page.text).toContain("/api/identification/token_status");
    expect(page.text).toContain('role="status">Done</p>');
  });

  it("shows the outbox with links to the verification page", async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.generateRemoteToken("VOTER", { send_token_to_client: "1" });
    const page = await readPage(await sandbox.request("/sandbox/outbox"));
    expect(page.heading).toBe("Outbox");
    expect(page.text).toContain(`href="http://127.0.0.1:4999/sandbox/verify/${token}"`);
  });
});
