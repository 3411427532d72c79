import type { Locator, Page } from "@playwright/test";
import { supportCodeAlphabet } from "@/lib/support/support-code";
import { newCustomer } from "./support/customers";
import { issueRemoteToken } from "@/e2e/support/live";
import { readServerLog } from "./support/privacy";
import { callsSince, clearFaults, injectFault, markCalls, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { attestAndSubmit, fillContact, openRemoteForm } from "./support/token-forms";

/**
 * Feedback where the teller is looking (ADR 0029): a form's error or warning is scrolled into
 * view and focused, carries a support code the server log knows, and the remote form can be
 * driven end to end from the keyboard alone.
 */

test.afterEach(async () => {
  await clearFaults();
});

const supportCodePattern = new RegExp(`Reference for support: ([${supportCodeAlphabet}]{8})\\b`);

/** The alert is the focused element, wholly inside the viewport, and not under the sticky Issue bar. */
async function expectInViewAndFocused(page: Page, alert: Locator): Promise<void> {
  await expect(alert).toBeFocused();
  const placement = await alert.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const bar = document.querySelector('[data-testid="issue-bar"]')?.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, viewport: window.innerHeight, barTop: bar?.top ?? window.innerHeight, isActive: document.activeElement === element };
  });
  expect(placement.isActive).toBe(true);
  expect(placement.top).toBeGreaterThanOrEqual(0);
  expect(placement.bottom).toBeLessThanOrEqual(placement.viewport);
  expect(placement.bottom).toBeLessThanOrEqual(placement.barTop);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`a service fault after Issue leaves the alert in view and focused, with a support code in the log (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const customer = newCustomer();
    await openRemoteForm(page);
    await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
    await fillContact(page, customer);
    await injectFault("500", upstreamPaths.remote);

    // The teller is at the button: scrolled to the bottom of the form.
    await attestAndSubmit(page, "Issue remote token");
    const alert = page.getByRole("alert").filter({ has: page.getByTestId("issue-alert") });
    await expect(alert.getByTestId("issue-alert")).toHaveAttribute("data-code", "UPSTREAM_SERVER_ERROR");
    await expectInViewAndFocused(page, alert);
    await page.screenshot({ path: `/tmp/forms-fault-alert-${viewport.width}.png` });

    const supportCode = supportCodePattern.exec((await alert.textContent()) ?? "")?.[1];
    expect(supportCode, "an 8-character support code").toBeDefined();
    // The code staff read out finds the failed call in the server log.
    await expect
      .poll(() =>
        readServerLog()
          .split("\n")
          .some((line) => line.includes(`"requestId":"${supportCode}"`) && line.includes("UPSTREAM_SERVER_ERROR")),
      )
      .toBe(true);
  });
}

test("the same-customer warning is scrolled into view and focused (768 px)", async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  const customer = newCustomer();
  await issueRemoteToken(page, customer);

  await openRemoteForm(page);
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await fillContact(page, customer);
  await attestAndSubmit(page, "Issue remote token");
  const warning = page.getByRole("alert").filter({ has: page.getByTestId("active-token-warning") });
  await expectInViewAndFocused(page, warning);
  await page.screenshot({ path: "/tmp/forms-active-warning-768.png" });
});

test("the remote form: ID field focused on arrival, options folded with a summary of what is on", async ({ page }) => {
  await openRemoteForm(page);
  await expect(page.getByLabel("Ghana Card number")).toBeFocused();
  const toggle = page.getByRole("button", { name: /More options/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByLabel("Send the link by SMS")).toBeHidden();
  await expect(page.getByTestId("options-summary")).toHaveText("On: Send the link by SMS.");
  // With an e-mail the link still goes somewhere, so no option is in error (an option in error keeps the fold open).
  await page.getByLabel("E-mail").fill("customer@example.com");
  await toggle.click();
  await page.getByLabel("Send the link by SMS").uncheck();
  await page.getByLabel("Capture the device location").check();
  await expect(page.getByTestId("options-summary")).toHaveText("On: Capture the device location.");
  await toggle.click();
  await expect(page.getByLabel("Capture the device location")).toBeHidden();
  await expect(page.getByTestId("options-summary")).toHaveText("On: Capture the device location.");
});

test("keyboard only: skip link, the remote form with a DD/MM/YYYY date of birth, to the token page", async ({ page }) => {
  const customer = newCustomer();
  const mark = await markCalls();
  await page.goto("/tokens/new/fingerprint");
  await expect(page.getByRole("heading", { name: "New token" })).toBeVisible();
  const focusedId = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || "");

  await page.keyboard.press("Tab");
  await expect(page.getByTestId("skip-link")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();

  // From the top of the page's work: the kinds of token, then Remote.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: /Fingerprint/ })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: /Remote/ })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/tokens\/new\/remote$/);
  await expect(page.getByLabel("Ghana Card number")).toBeFocused();

  // Back up to the purpose (type-ahead on the closed list), then the ID type with the arrows.
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  await expect(page.getByRole("combobox", { name: "Purpose" })).toBeFocused();
  await page.keyboard.type("Loan d");
  await expect(page.getByRole("combobox", { name: "Purpose" })).toHaveValue("Loan disbursement");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("radio", { name: "Ghana Card" })).toBeFocused();
  for (let step = 0; step < 3; step += 1) await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("radio", { name: "Driver licence" })).toBeChecked();

  await page.keyboard.press("Tab");
  expect(await focusedId()).toBe("driverLicenceNumber");
  await page.keyboard.type(customer.driverLicenceNumber);
  await page.keyboard.press("Tab");
  expect(await focusedId()).toBe("dateOfBirth");
  // Day first, whatever the browser's locale; the slashes come by themselves.
  await page.keyboard.type("14031988");
  await expect(page.getByLabel("Date of birth")).toHaveValue("14/03/1988");
  await page.keyboard.press("Tab");
  expect(await focusedId()).toBe("phoneNumber");
  await page.keyboard.type(customer.phoneTyped);
  await page.keyboard.press("Tab");
  expect(await focusedId()).toBe("email");
  await page.keyboard.press("Tab");
  expect(await focusedId()).toBe("referenceId");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: /More options/ })).toBeFocused();
  // The customer's consent, read out and ticked with the space bar.
  await page.keyboard.press("Tab");
  expect(await focusedId()).toBe("consentAttested");
  await page.keyboard.press("Space");
  await expect(page.getByLabel("I read this to the customer and they agreed to the check.")).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Issue remote token" })).toBeFocused();
  await page.keyboard.press("Enter");

  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("token-value")).toBeVisible();
  const [call] = await callsSince(mark, upstreamPaths.remote);
  expect(call?.fields).toMatchObject({ id_type: "DRIVER_LICENCE", dob: "1988-03-14", purpose: "Loan disbursement" });
});
