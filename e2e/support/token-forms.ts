import { expect, type Page } from "@playwright/test";
import type { TestCustomer } from "./customers";

/** Drives the two token forms the way a teller does. */

export type RemoteIdType = "Ghana Card" | "Voter ID" | "Passport" | "Driver licence";

export async function openRemoteForm(page: Page): Promise<void> {
  await page.goto("/tokens/new/remote");
  await expect(page.getByRole("heading", { name: "New token" })).toBeVisible();
}

export async function chooseIdType(page: Page, idType: RemoteIdType): Promise<void> {
  await page.getByRole("radio", { name: idType }).check();
}

/** Picks one of the bank's purposes (the seeded set of migration 0009) from the purpose list. */
export async function choosePurpose(page: Page, purpose: string): Promise<void> {
  await page.getByRole("combobox", { name: "Purpose" }).selectOption(purpose);
}

/**
 * Fills the contact fields and the purpose. The purpose must allow the ID type already chosen
 * (the form switches a disallowed type away): "Account opening" allows the Ghana Card only.
 */
export async function fillContact(page: Page, customer: TestCustomer, options: { email?: boolean; purpose?: string } = {}): Promise<void> {
  await page.getByLabel("Customer's mobile number").fill(customer.phoneTyped);
  if (options.email) await page.getByLabel("E-mail").fill(customer.email);
  await choosePurpose(page, options.purpose ?? "Account opening");
}

/** Unfolds "More options" (the remote form keeps them folded) unless already open. */
export async function openMoreOptions(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: /More options/ });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
}

export async function setOption(page: Page, label: string, isOn: boolean): Promise<void> {
  await openMoreOptions(page);
  await page.getByLabel(label).setChecked(isOn);
}

/** Ticks the customer's consent confirmation (ADR 0023): every token needs it. */
export async function attestConsent(page: Page): Promise<void> {
  const box = page.getByLabel("I read this to the customer and they agreed to the check.");
  // By keyboard: focusing it blurs the field before, whose validation may move the page; a
  // mouse click would then land where the box was a moment ago. Again if a tick given while the
  // page was still hydrating was undone by React.
  await expect(async () => {
    if (!(await box.isChecked())) {
      await box.focus();
      await page.keyboard.press("Space");
    }
    await expect(box).toBeChecked({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}

/** Attests consent, then presses the form's submit button. */
export async function attestAndSubmit(page: Page, buttonName: string): Promise<void> {
  await attestConsent(page);
  await page.getByRole("button", { name: buttonName }).click();
}

/** Submits and waits for the token page; answers the token request id from the URL. */
export async function submitAndOpenToken(page: Page, buttonName: string): Promise<string> {
  await attestAndSubmit(page, buttonName);
  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
  return page.url().split("/").pop()!;
}

export async function shownToken(page: Page): Promise<string> {
  const token = (await page.getByTestId("token-value").textContent())?.trim() ?? "";
  expect(token).toMatch(/^\S+$/);
  return token;
}
