import { expect, type Browser, type Page } from "@playwright/test";
import type { TestCustomer } from "./customers";
import { listCalls, messagesFor, type SandboxCall } from "./sandbox";
import { chooseIdType, choosePurpose, fillContact, openRemoteForm, shownToken, submitAndOpenToken } from "./token-forms";

/**
 * What the live specs do besides the token forms: play the customer on the sandbox's link page or
 * scanner simulator (in a browser context of their own, as on their own phone or device), and
 * read what the sandbox knows about a token and which status calls it received.
 */

const sandboxUrl = () => process.env.SANDBOX_URL ?? "http://127.0.0.1:4010";

export const statusPaths = {
  state: "/api/identification/check_token_status",
  result: "/api/identification/token_status",
} as const;

/** How long a state change may take to reach the page: a watcher interval plus a page interval. */
export const LIVE_TIMEOUT = 20_000;

export type SandboxTokenRecord = {
  token: string;
  state: "pending" | "used" | "expired";
  result?: { status: "SUCCESSFUL" | "FAILED"; transactionNumber: string; error?: string };
};

export async function sandboxToken(token: string): Promise<SandboxTokenRecord> {
  const response = await fetch(`${sandboxUrl()}/sandbox/api/tokens/${encodeURIComponent(token)}`);
  expect(response.ok, `sandbox knows token ${token}`).toBe(true);
  return (await response.json()) as SandboxTokenRecord;
}

export async function sandboxPost(path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${sandboxUrl()}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok, `POST ${path}: ${await response.clone().text()}`).toBe(true);
}

/** The status calls (both read endpoints) the sandbox received about one token. */
export async function statusCallsFor(token: string): Promise<SandboxCall[]> {
  return (await listCalls()).filter(
    (call) => call.token === token && (call.path === statusPaths.state || call.path === statusPaths.result),
  );
}

/** Issues a remote Ghana Card token with the SMS on; answers its request id and token. */
export async function issueRemoteToken(page: Page, customer: TestCustomer): Promise<{ id: string; token: string }> {
  await openRemoteForm(page);
  await chooseIdType(page, "Ghana Card");
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await fillContact(page, customer);
  const id = await submitAndOpenToken(page, "Issue remote token");
  return { id, token: await shownToken(page) };
}

export async function issueFingerprintToken(page: Page, customer: TestCustomer): Promise<{ id: string; token: string }> {
  await page.goto("/tokens/new/fingerprint");
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await page.getByLabel("Reference").fill(customer.phoneTyped);
  await choosePurpose(page, "KYC refresh");
  const id = await submitAndOpenToken(page, "Issue fingerprint token");
  return { id, token: await shownToken(page) };
}

/**
 * The customer opens the SMS link on their phone and goes through to the capture screen, which
 * starts the verification (the token is used from then on); `finish` then ends it.
 */
export async function startRemoteVerification(browser: Browser, token: string) {
  const [sms] = (await messagesFor(token)).filter((message) => message.channel === "sms");
  expect(sms, `an SMS went out for ${token}`).toBeDefined();
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await phone.newPage();
  await page.goto(sms!.link);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "I agree, start" }).click();
  await expect(page.getByRole("heading", { name: "Verify your identity" })).toBeVisible();
  return {
    async finish(outcome: "SUCCESSFUL" | "FAILED", reason?: string) {
      if (reason) await page.getByLabel("Failure reason (optional)").fill(reason);
      const button = outcome === "SUCCESSFUL" ? "Finish: verification succeeds" : "Finish: verification fails";
      await page.getByRole("button", { name: button }).click();
      await expect(page.getByRole("heading", { name: "Verification complete" })).toBeVisible();
      await phone.close();
    },
  };
}

/** The fingerprint device: token typed in, finger captured, the comparison's outcome chosen. */
export async function actOnScanner(browser: Browser, token: string, outcome: "SUCCESSFUL" | "FAILED"): Promise<void> {
  const device = await browser.newContext();
  try {
    const page = await device.newPage();
    await page.goto(`${sandboxUrl()}/sandbox/scanner`);
    await page.getByLabel("Token").fill(token);
    await page.getByRole("button", { name: "Capture fingerprint" }).click();
    await expect(page.getByRole("heading", { name: "Fingerprint captured" })).toBeVisible();
    const button = outcome === "SUCCESSFUL" ? "Match: verification succeeds" : "No match: verification fails";
    await page.getByRole("button", { name: button }).click();
    await expect(page.getByRole("heading", { name: "Verification complete" })).toBeVisible();
  } finally {
    await device.close();
  }
}

/**
 * Fails the test if the page was reloaded or left: a marker put into the document now must still
 * be there at the end. (History-API updates of the router keep the document, and the marker.)
 */
export async function forbidReloads(page: Page): Promise<() => Promise<void>> {
  await page.waitForLoadState("load");
  await page.evaluate(() => {
    (window as Window & { liveMarker?: boolean }).liveMarker = true;
  });
  return async () => {
    const isSameDocument = await page.evaluate(() => (window as Window & { liveMarker?: boolean }).liveMarker === true);
    expect(isSameDocument, "the page was not reloaded or left").toBe(true);
  };
}
