import { newCustomer, secretFormsOf } from "./support/customers";
import { expectNowhere, watchUrls } from "./support/privacy";
import { expect, test } from "./support/session";
import { forbidReloads, issueRemoteToken, LIVE_TIMEOUT, sandboxToken, startRemoteVerification } from "@/e2e/support/live";

/**
 * The live token page follows a remote token from issue to outcome while the customer acts on
 * the sandbox's link page, without the teller reloading anything.
 */

test("remote token: the customer finishes on the SMS link, the page turns Successful with the transaction number", async ({ page, browser }) => {
  const { token } = await issueRemoteToken(page, newCustomer());
  const assertNoReload = await forbidReloads(page);
  const badge = page.getByTestId("state-badge");
  await expect(badge).toHaveText("Waiting for customer");
  await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  await page.screenshot({ path: "/tmp/live-remote-waiting.png" });

  const customer = await startRemoteVerification(browser, token);
  await expect(badge).toHaveText("Verification in progress", { timeout: LIVE_TIMEOUT });
  await page.screenshot({ path: "/tmp/live-remote-in-progress.png" });

  await customer.finish("SUCCESSFUL");
  await expect(badge).toHaveText("Successful", { timeout: LIVE_TIMEOUT });
  const { result } = await sandboxToken(token);
  expect(result?.status).toBe("SUCCESSFUL");
  await expect(page.getByTestId("transaction-number")).toHaveText(result!.transactionNumber);
  await expect(page.getByTestId("connection-status")).toContainText("Final");
  await expect(page.getByRole("link", { name: "Print slip" })).toBeVisible();
  await page.screenshot({ path: "/tmp/live-remote-successful.png" });
  await assertNoReload();

  // The history tells the story in order.
  const timeline = page.getByTestId("token-timeline");
  await expect(timeline).toContainText("Customer started the verification");
  await expect(timeline).toContainText("Verification successful");
});

test("remote token: a failed verification shows the service's error text and offers a pre-filled new token", async ({ page, browser }) => {
  const customer = newCustomer();
  const urls = watchUrls(page);
  const { id, token } = await issueRemoteToken(page, customer);
  const assertNoReload = await forbidReloads(page);

  const verification = await startRemoteVerification(browser, token);
  await verification.finish("FAILED", "Face does not match the ID photo");
  await expect(page.getByTestId("state-badge")).toHaveText("Failed", { timeout: LIVE_TIMEOUT });
  await expect(page.getByTestId("failure-reason")).toHaveText("Face does not match the ID photo");
  await expect(page.getByTestId("transaction-number")).toHaveText((await sandboxToken(token)).result!.transactionNumber);
  await page.screenshot({ path: "/tmp/live-remote-failed.png" });
  await assertNoReload();

  // The failed slip records the attempt and its reason; it does not stand in for a photocopy.
  await page.goto(`/tokens/${id}/slip`);
  const slip = page.getByTestId("verification-slip");
  await expect(page.getByRole("heading", { level: 1, name: "Identity verification slip" })).toBeVisible();
  await expect(slip.getByTestId("slip-failure-reason")).toContainText("Face does not match the ID photo");
  await expect(slip).not.toContainText("photocopy");
  await page.goto(`/tokens/${id}`);

  // New token for this customer: the same form, its details kept on the server and shown masked,
  // nothing of theirs in the URL or the page.
  await page.getByTestId("new-token-for-customer").click();
  await page.waitForURL(`**/tokens/new/remote?from=${id}`);
  await expect(page.getByText("New token for the same customer")).toBeVisible();
  await expect(page.getByRole("radio", { name: "Ghana Card" })).toBeChecked();
  await expect(page.getByLabel("Ghana Card number")).toContainText(`GHA-•••••${customer.ghanaCardNumber.slice(10, 13)}-${customer.ghanaCardNumber.slice(14)}`);
  await expect(page.getByLabel("Customer's mobile number")).toContainText(`024 ••• ${customer.phoneLocal.slice(-4)}`);
  const html = await page.content();
  for (const secret of [...secretFormsOf(customer), customer.phoneLocal]) expect(html).not.toContain(secret);
  await page.screenshot({ path: "/tmp/live-remote-new-token-form.png", fullPage: true });
  expectNowhere(secretFormsOf(customer), { urls });
});
