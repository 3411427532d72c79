import { liveFixtures } from "@/e2e/support/live-fixtures";
import { issueFingerprintToken } from "@/e2e/support/live";
import { newCustomer } from "./support/customers";
import { expect, test } from "./support/session";

/**
 * One token list: /tokens is the home page's live list with a search and state filters
 * — real states (never "Issued" for a token that failed or expired), open tokens on top, the
 * customer found by the token, the reference or the last digits of the ID, a whole row opening
 * its token.
 */

test("the token list: real states, open tokens first, search, filters, and a row that opens its token", async ({ page }) => {
  const customer = newCustomer();
  const { id, token } = await issueFingerprintToken(page, customer);
  await page.goto("/tokens");
  const list = page.getByTestId("token-list");
  const mine = list.getByRole("region", { name: /Your tokens today/ });

  // Real states, and the open token first.
  await expect(mine.getByTestId("dashboard-row").first()).toHaveAttribute("data-state", /^(waiting|in_progress)$/);
  await expect(list.locator(`[data-token-id="${liveFixtures.expiredRemote.id}"]`)).toHaveAttribute("data-state", "expired");
  await expect(list.locator(`[data-token-id="${liveFixtures.expiredRemote.id}"]`).getByTestId("state-badge")).toHaveText("Expired");
  await expect(list.locator(`[data-token-id="${liveFixtures.unknownFingerprint.id}"]`)).toHaveAttribute("data-state", "outcome_unknown");

  // The state filter.
  await list.getByRole("button", { name: "Unknown outcome" }).click();
  await expect(list.getByRole("button", { name: "Unknown outcome" })).toHaveAttribute("aria-pressed", "true");
  const rows = list.getByTestId("dashboard-row");
  await expect(rows.first()).toBeVisible();
  expect(new Set(await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-state"))))).toEqual(new Set(["outcome_unknown"]));
  await expect(page.getByTestId("token-list-count")).toHaveText(/^Showing \d+ of \d+ tokens\.$/);
  await list.getByRole("button", { name: "All" }).click();

  // The search: the token as read out (lower case, spaces), the last digits of an ID, a reference.
  const search = list.getByRole("searchbox", { name: "Find a token" });
  await search.fill(` ${token.slice(0, 3).toLowerCase()} ${token.slice(3).toLowerCase()} `);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-token-id", id);
  await search.fill(liveFixtures.expiredRemote.ghanaCardNumber.slice(-5));
  await expect(list.locator(`[data-token-id="${liveFixtures.expiredRemote.id}"]`)).toBeVisible();
  await search.fill("no such token at all");
  await expect(list.getByText("No token matches")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("token-list-empty-search.png") });

  // A click anywhere on the row opens the token.
  await search.fill(token);
  await rows.first().getByText(customer.ghanaCardNumber.slice(-5)).click();
  await expect(page).toHaveURL(`/tokens/${id}`);
});
