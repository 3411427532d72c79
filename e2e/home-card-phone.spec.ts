import { LIVE_TIMEOUT, issueRemoteToken, startRemoteVerification } from "@/e2e/support/live";
import { newCustomer } from "./support/customers";
import { findLayoutDefects } from "./support/layout-checks";
import { expect, test } from "./support/session";

/**
 * On the teller's home, a failed token's reason was written over its card on
 * a phone and squeezed the token code onto four lines (the reason sat in the card's narrow right
 * column). The reason now takes the card's width; the code stays on one line. At 1280, 768 and
 * 390 px, with a screenshot of the row and of the page kept.
 */
test.use({ account: "teller.kumasi" });

const longReason = "The face in the selfie does not match the photo on the ID document; ask the customer to retry in good light";

test("a failed token's reason fits its card and the token code stays on one line, at 1280, 768 and 390 px", async ({ page, browser }, testInfo) => {
  const { id, token } = await issueRemoteToken(page, newCustomer());
  const customer = await startRemoteVerification(browser, token);
  await customer.finish("FAILED", longReason);
  await page.goto("/");
  const row = page.locator(`[data-testid="dashboard-row"][data-token-id="${id}"]`);
  await expect(row).toHaveAttribute("data-state", "failed", { timeout: LIVE_TIMEOUT });

  for (const width of [1280, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await expect(row.getByTestId("dashboard-failure-reason")).toHaveText(longReason);
    expect(await findLayoutDefects(page), `the home page at ${width} px`).toEqual([]);
    // The reason lies inside its own row, below the token and beside nothing it could cover.
    const [rowBox, reasonBox, codeBox] = await Promise.all([row.boundingBox(), row.getByTestId("dashboard-failure-reason").boundingBox(), row.locator("[data-token-code]").boundingBox()]);
    expect(reasonBox!.x + reasonBox!.width, `reason inside its card at ${width} px`).toBeLessThanOrEqual(rowBox!.x + rowBox!.width + 1);
    expect(reasonBox!.y + reasonBox!.height).toBeLessThanOrEqual(rowBox!.y + rowBox!.height + 1);
    const lineHeight = await row.locator("[data-token-code]").evaluate((code) => parseFloat(getComputedStyle(code).lineHeight));
    expect(codeBox!.height, `${token} on one line at ${width} px`).toBeLessThanOrEqual(lineHeight * 1.2);
    await row.screenshot({ path: testInfo.outputPath(`failed-card-${width}.png`) });
    await page.screenshot({ path: testInfo.outputPath(`home-${width}.png`), fullPage: true });
  }
});
