import { newCustomer } from "./support/customers";
import { callsSince, markCalls, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { actOnScanner, issueFingerprintToken, LIVE_TIMEOUT } from "@/e2e/support/live";
import { attestAndSubmit, choosePurpose, submitAndOpenToken } from "./support/token-forms";

/**
 * "This customer already has a token without a result" (lib/tokens/active-tokens.ts): a token
 * that has ended — here failed — never stops the next one, while a token still waiting for the
 * customer does, named with its state and time left. At 1280, 768 and 390 px.
 */

test("a failed token does not stop the next one for the same customer", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const customer = newCustomer();
  const { token } = await issueFingerprintToken(page, customer);
  await actOnScanner(browser, token, "FAILED");
  await expect(page.getByTestId("state-badge")).toHaveText("Failed", { timeout: LIVE_TIMEOUT });

  // Well within the failed token's 15 minutes: the next token is issued at once.
  const mark = await markCalls();
  await page.goto("/tokens/new/fingerprint");
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await page.getByLabel("Reference").fill("AFTER-FAILED");
  await choosePurpose(page, "KYC refresh");
  await submitAndOpenToken(page, "Issue fingerprint token");
  await expect(page.getByTestId("active-token-warning")).toHaveCount(0);
  expect(await callsSince(mark, upstreamPaths.fingerprint)).toHaveLength(1);
});

test("a token still waiting for the customer is named with its state and the minutes left (1280, 768, 390 px)", async ({ page }, testInfo) => {
  const customer = newCustomer();
  const { id } = await issueFingerprintToken(page, customer);

  for (const width of [1280, 768, 390] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/tokens/new/fingerprint");
    await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
    await page.getByLabel("Reference").fill(`SECOND-${width}`);
    await choosePurpose(page, "KYC refresh");
    await attestAndSubmit(page, "Issue fingerprint token");
    const warning = page.getByTestId("active-token-warning");
    await expect(page.getByRole("alert").filter({ has: warning })).toContainText("This customer already has a token without a result");
    await expect(warning.locator(`li[data-state="waiting"]`)).toContainText(
      /^A fingerprint Ghana Card token waiting for the customer \(issued \d\d:\d\d by Kwame Asante, 1[45] min left\)/,
    );
    await expect(warning.getByRole("link", { name: "Open this token" })).toHaveAttribute("href", `/tokens/${id}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath(`same-customer-warning-${width}.png`), fullPage: true });
  }
});
