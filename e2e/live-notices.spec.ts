import { newCustomer } from "./support/customers";
import { expect, test } from "./support/session";
import { actOnScanner, issueFingerprintToken } from "@/e2e/support/live";

/**
 * Results you notice: a token of the teller's ends while they work on another page —
 * a notice appears there with a link to the token, the tab title counts the results waiting, and
 * the chime they turned on plays (it is off until they do, and stays as they left it).
 */

declare global {
  interface Window {
    chimeTones?: number;
  }
}

test("a token that ends while the teller is on another page: a notice with a link, the title, and the chime", async ({ page, browser }) => {
  // Counts the tones the page starts (the chime is two), without touching the app's code.
  await page.addInitScript(() => {
    window.chimeTones = 0;
    const createOscillator = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      window.chimeTones = (window.chimeTones ?? 0) + 1;
      return createOscillator.call(this);
    };
  });
  await page.goto("/");
  const chime = page.getByRole("button", { name: "Chime when a token ends" });
  await expect(chime).toHaveAttribute("aria-pressed", "false");
  await chime.click();
  await expect(chime).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(chime, "remembered for this teller").toHaveAttribute("aria-pressed", "true");

  const { id, token } = await issueFingerprintToken(page, newCustomer());
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New token" }).click();
  // (New token opens the fingerprint form.)
  await expect(page).toHaveURL("/tokens/new/fingerprint");

  await actOnScanner(browser, token, "SUCCESSFUL");
  const notice = page.getByTestId("result-notice").filter({ hasText: token });
  await expect(notice).toBeVisible({ timeout: 40_000 });
  await expect(notice.getByTestId("state-badge")).toHaveText("Successful");
  // The count goes in front of the page's own title.
  await expect(page).toHaveTitle(/^\(1\) Result · New .*token · Veridesk$/);
  expect(await page.evaluate(() => window.chimeTones)).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: test.info().outputPath("result-notice.png") });

  await notice.getByRole("link", { name: "Open the token" }).click();
  await expect(page).toHaveURL(`/tokens/${id}`);
  await expect(page.getByTestId("result-notice")).toHaveCount(0);
  await expect(page).not.toHaveTitle(/^\(\d+\) Results? · /);
  await expect(page.getByTestId("state-badge")).toHaveText("Successful");
});

test("the notice can be dismissed, and without the chime turned on nothing plays", async ({ page, browser }) => {
  await page.addInitScript(() => {
    window.chimeTones = 0;
    const createOscillator = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      window.chimeTones = (window.chimeTones ?? 0) + 1;
      return createOscillator.call(this);
    };
  });
  const { token } = await issueFingerprintToken(page, newCustomer());
  await page.goto("/tokens");
  await expect(page.getByRole("button", { name: "Chime when a token ends" })).toHaveAttribute("aria-pressed", "false");
  await actOnScanner(browser, token, "FAILED");
  const notice = page.getByTestId("result-notice").filter({ hasText: token });
  await expect(notice).toBeVisible({ timeout: 40_000 });
  await expect(notice.getByTestId("state-badge")).toHaveText("Failed");
  await notice.getByRole("button", { name: `Dismiss the notice of token ${token}` }).click();
  await expect(notice).toHaveCount(0);
  await expect(page).not.toHaveTitle(/^\(\d+\) Results? · /);
  expect(await page.evaluate(() => window.chimeTones)).toBe(0);
});

test("today's list is polled once for a page: by the live screen where there is one, else by the notices, not counted as watched", async ({ page }) => {
  const polls: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/tokens" && url.searchParams.get("scope") === "today") polls.push(url.search);
  });
  // The token list polls today's list itself; the notices listen to that poll and ask nothing.
  await page.goto("/tokens");
  await expect.poll(() => polls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  expect(polls.filter((search) => search.includes("watch=0")), "no poll of the notices' own beside the list's").toEqual([]);

  // From one live screen to the other: the list's poll hands over to the dashboard's, and the
  // notices never start one of their own in between.
  polls.length = 0;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL("/");
  await expect.poll(() => polls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  expect(polls.filter((search) => search.includes("watch=0")), "no poll of the notices' own on the way").toEqual([]);

  // A form has no live screen: the notices poll the list, without counting its tokens as watched.
  polls.length = 0;
  await page.goto("/tokens/new/fingerprint");
  await expect.poll(() => polls.length, { timeout: 25_000 }).toBeGreaterThanOrEqual(2);
  expect(polls.every((search) => search.includes("watch=0")), polls.join(" ")).toBe(true);
});
