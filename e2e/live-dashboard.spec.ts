import { newCustomer } from "./support/customers";
import { expect, test } from "./support/session";
import { liveFixtures } from "@/e2e/support/live-fixtures";
import { actOnScanner, forbidReloads, issueFingerprintToken, LIVE_TIMEOUT } from "@/e2e/support/live";

test("the teller's home lists today's tokens of the branch, live, from one polling request", async ({ page, browser }) => {
  const requests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/tokens")) requests.push(url.pathname + url.search);
  });
  await page.goto("/");
  const assertNoReload = await forbidReloads(page);
  const dashboard = page.getByTestId("token-dashboard");
  await expect(dashboard.getByRole("heading", { name: /Your tokens today/ })).toBeVisible();

  // The call that never answered stands out: issuing again might send a second SMS.
  const unknown = dashboard.locator(`[data-token-id="${liveFixtures.unknownFingerprint.id}"]`);
  await expect(unknown).toHaveAttribute("data-state", "outcome_unknown");
  await expect(unknown).toContainText("Check before issuing again");
  await expect(dashboard.getByRole("status").filter({ hasText: /unknown outcome/ })).toBeVisible();
  await expect(dashboard.locator(`[data-token-id="${liveFixtures.expiredRemote.id}"]`)).toHaveAttribute("data-state", "expired");

  // A token issued elsewhere appears, counts down, and turns Successful — on this page, unreloaded.
  const counter = await page.context().newPage();
  const { id, token } = await issueFingerprintToken(counter, newCustomer());
  await counter.close();
  const row = dashboard.locator(`[data-token-id="${id}"]`);
  await expect(row).toHaveAttribute("data-state", "waiting", { timeout: LIVE_TIMEOUT });
  await expect(row.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  await page.screenshot({ path: "/tmp/live-dashboard.png" });

  await actOnScanner(browser, token, "SUCCESSFUL");
  await expect(row).toHaveAttribute("data-state", "successful", { timeout: LIVE_TIMEOUT });
  await expect(row).toContainText("GH-STE-");
  await assertNoReload();

  // However many rows, one request per poll, and never one per token; each names the version
  // the page holds (the server-rendered list has one), so only the changes come back.
  expect(requests.length).toBeGreaterThan(2);
  expect(requests.every((path) => /^\/api\/tokens\?scope=today(&since=[\w%-]+)?$/.test(path))).toBe(true);
  expect(requests.some((path) => path.includes("&since="))).toBe(true);
});
