import { expect, test, type Page } from "@playwright/test";

/**
 * The sandbox's customer-facing pages, driven as a browser would. Other specs share this sandbox
 * process, so these tests only touch tokens they create (no reset, no clock moves).
 */
const SANDBOX_URL = process.env.SANDBOX_URL ?? "http://127.0.0.1:4010";
const API_HEADERS = { "X-API-AUTH": process.env.SANDBOX_API_KEY ?? "sandbox-key" };

async function generateRemoteToken(extra: Record<string, string> = {}): Promise<string> {
  const form = new FormData();
  const fields = {
    id_type: "GHANA_CARD",
    verificationtype: "3",
    phonenumber: "0541504140",
    referenceid: "0541504140",
    purpose: "Account opening",
    ghanacardnumber: "GHA-123456789-0",
    send_token_to_client: "1",
    ...extra,
  };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${SANDBOX_URL}/api/identification/initiate/token_verification`, {
    method: "POST",
    headers: API_HEADERS,
    body: form,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { verificationtoken: string }).verificationtoken;
}

async function generateFingerprintToken(): Promise<string> {
  const response = await fetch(`${SANDBOX_URL}/api/fingerprint/initiate_finger_verification_sdk`, {
    method: "POST",
    headers: { ...API_HEADERS, "Content-Type": "application/json" },
    body: JSON.stringify({ id_number: "GHA-987654321-5", referenceid: "0241234567" }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

async function findSmsLink(token: string): Promise<string> {
  const response = await fetch(`${SANDBOX_URL}/sandbox/api/outbox`);
  const { messages } = (await response.json()) as { messages: { channel: string; token: string; link: string }[] };
  const sms = messages.find((message) => message.token === token && message.channel === "sms");
  expect(sms, `an SMS for ${token}`).toBeDefined();
  return sms!.link;
}

async function getTokenStatus(token: string): Promise<unknown> {
  const response = await fetch(`${SANDBOX_URL}/api/identification/token_status?token=${token}`, { headers: API_HEADERS });
  return response.json();
}

async function readTransactionNumber(page: Page): Promise<string> {
  const text = await page.getByText(/^Transaction number:/).textContent();
  return text?.replace("Transaction number:", "").trim() ?? "";
}

async function passInstructionsAndConsent(page: Page) {
  await expect(page.getByRole("heading", { level: 1, name: "Before you start" })).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Confirm and start" })).toBeVisible();
  await page.getByRole("button", { name: "I agree, start" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Verify your identity" })).toBeVisible();
}

test.describe("sandbox verification link page", () => {
  test("a customer completes a successful remote verification from the SMS link", async ({ page }) => {
    const token = await generateRemoteToken({ require_location: "1" });
    await page.goto(await findSmsLink(token));

    await passInstructionsAndConsent(page);
    await expect(page.getByText("Full KYC")).toBeVisible();
    await page.getByLabel("Location").fill("5.6037, -0.1870");
    await page.getByRole("button", { name: "Finish: verification succeeds" }).click();

    await expect(page.getByRole("heading", { level: 1, name: "Verification complete" })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText("Verification succeeded");
    const transactionNumber = await readTransactionNumber(page);
    expect(transactionNumber).toMatch(/^GH-STE-/);
    expect(await getTokenStatus(token)).toEqual({
      status: { token, status: "SUCCESSFUL", transactionnumber: transactionNumber },
    });
  });

  test("a customer's failed verification carries the failure reason", async ({ page }) => {
    const token = await generateRemoteToken({ verification_mode_id: "7", require_address_location: "1" });
    await page.goto(await findSmsLink(token));

    await passInstructionsAndConsent(page);
    await expect(page.getByText("Liveness only")).toBeVisible();
    await page.getByLabel("Home address").fill("GA-123-4567, Accra");
    await page.getByLabel("Failure reason (optional)").fill("Face not detected");
    await page.getByRole("button", { name: "Finish: verification fails" }).click();

    await expect(page.getByRole("status")).toHaveText("Verification failed");
    await expect(page.getByText("Reason: Face not detected")).toBeVisible();
    const transactionNumber = await readTransactionNumber(page);
    expect(transactionNumber).toMatch(/^GH-INP-/);
    expect(await getTokenStatus(token)).toEqual({
      status: { token, status: "FAILED", transactionnumber: transactionNumber, error: "Face not detected" },
    });

    await page.goto(`${SANDBOX_URL}/sandbox/verify/${token}`);
    await expect(page.getByRole("heading", { level: 1, name: "This link has already been used" })).toBeVisible();
  });

  test("with_instructions=0 opens straight on the capture screen", async ({ page }) => {
    const token = await generateRemoteToken({ with_instructions: "0" });
    await page.goto(await findSmsLink(token));
    await expect(page.getByRole("heading", { level: 1, name: "Verify your identity" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Finish: verification succeeds" })).toBeVisible();
  });
});

test.describe("sandbox fingerprint scanner", () => {
  test("a fingerprint token is captured and matched", async ({ page }) => {
    const token = await generateFingerprintToken();
    await page.goto(`${SANDBOX_URL}/sandbox/scanner`);
    await expect(page.getByRole("heading", { level: 1, name: "Fingerprint scanner" })).toBeVisible();

    await page.getByLabel("Token").fill(token);
    await page.getByRole("button", { name: "Capture fingerprint" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Fingerprint captured" })).toBeVisible();
    await page.getByRole("button", { name: "Match: verification succeeds" }).click();

    await expect(page.getByRole("status")).toHaveText("Verification succeeded");
    const transactionNumber = await readTransactionNumber(page);
    expect(await getTokenStatus(token)).toEqual({
      status: { token, status: "SUCCESSFUL", transactionnumber: transactionNumber },
    });
  });

  test("an unknown token is refused with a clear message", async ({ page }) => {
    await page.goto(`${SANDBOX_URL}/sandbox/scanner`);
    await page.getByLabel("Token").fill("NOSUCH99");
    await page.getByRole("button", { name: "Capture fingerprint" }).click();
    await expect(page.getByRole("alert")).toHaveText("No token NOSUCH99 exists.");
  });
});
