import { newCustomer } from "./support/customers";
import { expect, test } from "./support/session";
import { liveFixtures } from "@/e2e/support/live-fixtures";
import { issueFingerprintToken } from "@/e2e/support/live";

const expired = liveFixtures.expiredRemote;

test("a token issued 16 minutes ago shows Expired and offers its issuer a new token, its details kept on the server", async ({ page }) => {
  await page.goto(`/tokens/${expired.id}`);
  await expect(page.getByTestId("state-badge")).toHaveText("Expired");
  await expect(page.getByRole("timer")).toHaveText("00:00");
  await expect(page.getByTestId("outcome")).toContainText("did not start within 15 minutes");
  await expect(page.getByTestId("connection-status")).toContainText("Final", { timeout: 20_000 });
  await page.screenshot({ path: "/tmp/live-expired.png" });

  await page.getByTestId("new-token-for-customer").click();
  await page.waitForURL(`**/tokens/new/remote?from=${expired.id}`);
  // Masked in the page, filled in by the issuing action (ADR 0038).
  await expect(page.getByLabel("Ghana Card number")).toHaveText("GHA-•••••016-4 — from the earlier token");
  await expect(page.getByLabel("Customer's mobile number")).toHaveText("024 ••• 0016 — from the earlier token");
  await expect(page.getByLabel("Reference")).toHaveText("024 ••• 0016 — from the earlier token");
  expect(page.url()).not.toContain(expired.ghanaCardNumber.slice(4, 13));
  const html = await page.content();
  for (const secret of [expired.ghanaCardNumber, expired.ghanaCardNumber.slice(4, 13), expired.phoneNumber]) expect(html).not.toContain(secret);
});

test("a browser clock hours off still shows the right time left", async ({ page }) => {
  // The counter PC's clock is 5 hours and 7 minutes behind: its own Date.now() is useless.
  await page.clock.install({ time: new Date(Date.now() - (5 * 60 + 7) * 60_000) });
  await issueFingerprintToken(page, newCustomer());
  const timer = page.getByRole("timer");
  await expect(timer).toHaveText(/^1[45]:\d\d$/);
  // Still right after the first polls, when the offset is measured from the server's answers.
  await page.waitForTimeout(5_000);
  const shown = await timer.textContent();
  const [minutes, seconds] = shown!.split(":").map(Number);
  const remaining = minutes! * 60 + seconds!;
  expect(remaining).toBeGreaterThan(14 * 60 + 30);
  expect(remaining).toBeLessThanOrEqual(14 * 60 + 56);
});

test("an issuing call that never answered is shown as outcome unknown, with no countdown", async ({ page }) => {
  await page.goto(`/tokens/${liveFixtures.unknownFingerprint.id}`);
  await expect(page.getByTestId("state-badge")).toHaveText("Outcome unknown");
  await expect(page.getByRole("timer")).toHaveCount(0);
  // A fingerprint token is never sent to the customer: nothing to recover from an SMS.
  await expect(page.getByTestId("outcome")).toContainText("No link was sent to the customer");
  await expect(page.getByTestId("sms-token-form")).toHaveCount(0);
});
