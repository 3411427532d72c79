import type { Browser, Page } from "@playwright/test";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { signInByApi } from "@/e2e/support/auth";
import { newCustomer } from "./support/customers";
import { addFault, clearFaults, listSandboxTokens, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { attestAndSubmit, chooseIdType, fillContact, openRemoteForm } from "./support/token-forms";

/**
 * The attempt page of a remote token whose issuing answer never came (ADR 0037): the teller who
 * issued it is told to ask a supervisor, with no form; the supervisor gets the form, which shows
 * what was typed in groups with O/0 and I/1 told apart, and says which characters to check when
 * the service does not know the token. At 1280, 768 and 390 px, screenshots kept with the results.
 */

test.afterEach(async () => {
  await clearFaults();
});

const widths = [1280, 768, 390] as const;

async function attemptWithoutAnswer(page: Page): Promise<{ url: string; smsToken: string }> {
  const before = new Set((await listSandboxTokens()).map((record) => record.token));
  await openRemoteForm(page);
  await chooseIdType(page, "Ghana Card");
  await page.getByLabel("Ghana Card number").fill(newCustomer().ghanaCardNumber);
  await fillContact(page, newCustomer());
  await addFault({ mode: "hang", path: upstreamPaths.remote });
  await attestAndSubmit(page, "Issue remote token");
  await expect(page.getByTestId("issue-alert")).toHaveAttribute("data-code", "UPSTREAM_TIMEOUT", { timeout: 30_000 });
  await page.getByTestId("open-attempt").click();
  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
  const created = (await listSandboxTokens()).filter((record) => !before.has(record.token));
  expect(created).toHaveLength(1);
  return { url: page.url(), smsToken: created[0]!.token };
}

async function supervisorPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password) });
  return context.newPage();
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

test("the teller is told to ask a supervisor; the supervisor's form tells O from 0 and I from 1 (1280, 768, 390 px)", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const { url, smsToken } = await attemptWithoutAnswer(page);
  const supervisor = await supervisorPage(browser);
  await supervisor.goto(url);

  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    // Scoped to the token: a result notice of another token may show a badge of its own meanwhile.
    await expect(page.getByTestId("live-token").getByTestId("state-badge")).toHaveText("Outcome unknown");
    await expect(page.getByTestId("ask-supervisor")).toHaveText(
      "Ask a supervisor to enter the token from the customer's SMS, if one arrived. If nothing arrived, issue a new token.",
    );
    await expect(page.getByTestId("sms-token-form")).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`attempt-teller-${width}.png`), fullPage: true });

    await supervisor.setViewportSize({ width, height: 900 });
    const field = supervisor.getByRole("textbox", { name: "Token from the customer's SMS" });
    await field.fill("o2g 51b-1o");
    const typed = supervisor.getByTestId("typed-token");
    await expect(typed).toContainText("letter O, digit 2, letter G, digit 5, digit one, letter B, digit one, letter O");
    await expect(typed.locator("[data-look-alike]")).toHaveCount(4);
    await expectNoSidewaysScroll(supervisor);
    await supervisor.screenshot({ path: testInfo.outputPath(`attempt-supervisor-${width}.png`), fullPage: true });
  }

  // The service does not know this spelling: the form points at the look-alikes, tries nothing else.
  await supervisor.getByRole("button", { name: "Check and follow this token" }).click();
  const error = supervisor.locator("#smsToken-error");
  await expect(error).toContainText("does not know this token");
  await expect(error).toContainText("Tokens can mix the letter O and the digit 0, and I and 1: check those characters with the customer.");
  await expect(supervisor.getByRole("textbox", { name: "Token from the customer's SMS" })).toHaveAttribute("aria-invalid", "true");
  await supervisor.screenshot({ path: testInfo.outputPath("attempt-supervisor-390-look-alikes.png"), fullPage: true });

  // The real token, typed as read out: followed from now on.
  await supervisor.getByRole("textbox", { name: "Token from the customer's SMS" }).fill(smsToken.toLowerCase());
  await supervisor.getByRole("button", { name: "Check and follow this token" }).click();
  await expect(supervisor.getByTestId("token-value")).toHaveText(smsToken, { timeout: 10_000 });
  await expect(supervisor.getByTestId("token-timeline")).toContainText("Entered by supervisor.kumasi");
  // The teller's page, left open, shows the token the supervisor entered without a reload.
  await expect(page.getByTestId("live-token").getByTestId("token-value")).toHaveText(smsToken, { timeout: 25_000 });
  await supervisor.context().close();
});
