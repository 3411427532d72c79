import { fingerprintWaitingLabel } from "@/lib/tokens/state";
import { newCustomer } from "./support/customers";
import { expect, test } from "./support/session";
import { actOnScanner, forbidReloads, issueFingerprintToken, LIVE_TIMEOUT, sandboxToken } from "@/e2e/support/live";

test("fingerprint token: QR code for the device, the scanner simulator's match shows as Successful", async ({ page, browser }) => {
  const { token } = await issueFingerprintToken(page, newCustomer());
  const assertNoReload = await forbidReloads(page);
  await expect(page.getByTestId("token-qr")).toBeVisible();
  await expect(page.getByTestId("token-qr")).toHaveAttribute("aria-label", `QR code of token ${token}`);
  await expect(page.getByTestId("state-badge")).toHaveText(fingerprintWaitingLabel);
  await page.screenshot({ path: "/tmp/live-fingerprint-waiting.png" });

  await actOnScanner(browser, token, "SUCCESSFUL");
  await expect(page.getByTestId("state-badge")).toHaveText("Successful", { timeout: LIVE_TIMEOUT });
  await expect(page.getByTestId("transaction-number")).toHaveText((await sandboxToken(token)).result!.transactionNumber);
  // Nothing left to scan: the QR code goes.
  await expect(page.getByTestId("token-qr")).toHaveCount(0);
  await page.screenshot({ path: "/tmp/live-fingerprint-successful.png" });
  await assertNoReload();

  // The slip prints the outcome; printing it is recorded.
  await page.getByRole("link", { name: "Print slip" }).click();
  await page.waitForURL(/\/slip$/);
  const slip = page.getByTestId("verification-slip");
  await expect(slip).toContainText(token);
  await expect(slip).toContainText((await sandboxToken(token)).result!.transactionNumber);
  await expect(slip).toContainText("Kumasi – Adum");
  await expect(page.getByRole("heading", { level: 1, name: "Identity verification slip" })).toBeVisible();
  await expect(slip).toContainText("replaces a photocopy");
  // "Printed <time>" is for paper, stamped when printed, never shown before.
  const printedAt = page.getByTestId("slip-printed-at");
  await expect(printedAt).toBeHidden();
  await expect(printedAt).toHaveAttribute("data-printed-at", "");
  const recorded = page.waitForRequest((request) => request.url().endsWith("/slip-printed") && request.method() === "POST");
  await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  const slipPrinted = await recorded;
  expect((await slipPrinted.response())?.status()).toBe(204);
  // Another site cannot make the teller's browser record a print: a cross-site POST, another
  // Origin, or one with neither header (not a browser's) is refused before anything is written.
  const foreign: Record<string, string>[] = [{ "sec-fetch-site": "cross-site", origin: "https://evil.example" }, { origin: "https://evil.example" }, {}];
  for (const headers of foreign) {
    expect((await page.request.post(slipPrinted.url(), { headers })).status(), JSON.stringify(headers)).toBe(403);
  }
  expect((await page.request.post(slipPrinted.url(), { headers: { "sec-fetch-site": "same-origin", origin: new URL(slipPrinted.url()).origin } })).status()).toBe(204);
  await page.screenshot({ path: "/tmp/live-slip-screen.png" });
  await page.emulateMedia({ media: "print" });
  await expect(printedAt).toBeVisible();
  await expect(printedAt).toContainText("Printed");
  expect(Date.now() - Date.parse((await printedAt.getAttribute("data-printed-at"))!)).toBeLessThan(60_000);
  await page.screenshot({ path: "/tmp/live-slip-print.png", fullPage: true });
});
