import { errorCatalog, type ErrorCode } from "@/lib/errors";
import type { Page } from "@playwright/test";
import { newCustomer, secretFormsOf, uniqueReferenceTail, type TestCustomer } from "./support/customers";
import { expectNowhere, readServerLog, watchUrls } from "./support/privacy";
import { callsSince, clearFaults, injectFault, markCalls, upstreamPaths, type FaultMode } from "./support/sandbox";
import { expect, test } from "./support/session";
import { attestAndSubmit, fillContact, openRemoteForm } from "./support/token-forms";

/**
 * Every fault of the service leaves the form as the teller filled it and says what happened, by
 * error code. A fault is never shown as a failed verification; a timeout leaves an "outcome
 * unknown" row in the token list.
 */

/** The server log's JSON lines (a line still being written is skipped). */
function serverLogLines(): Record<string, unknown>[] {
  return readServerLog()
    .split("\n")
    .flatMap((line) => {
      try {
        return line.startsWith("{") ? [JSON.parse(line) as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
}

test.afterEach(async () => {
  await clearFaults();
});

async function fillRemoteForm(page: Page, customer: TestCustomer, reference: string): Promise<void> {
  await openRemoteForm(page);
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await fillContact(page, customer, { email: true });
  await page.getByLabel("Reference").fill(reference);
}

async function expectFormStillFilled(page: Page, customer: TestCustomer, reference: string): Promise<void> {
  await expect(page.getByLabel("Ghana Card number")).toHaveValue(customer.ghanaCardNumber);
  await expect(page.getByLabel("Customer's mobile number")).toHaveValue(customer.phoneTyped);
  await expect(page.getByLabel("E-mail")).toHaveValue(customer.email);
  await expect(page.getByLabel("Reference")).toHaveValue(reference);
  await expect(page.getByRole("combobox", { name: "Purpose" })).toHaveValue("Account opening");
  await expect(page.getByRole("button", { name: "Issue remote token" })).toBeEnabled();
}

const definiteFaults: Array<{ mode: FaultMode; code: ErrorCode }> = [
  { mode: "500", code: "UPSTREAM_SERVER_ERROR" },
  { mode: "502-html", code: "UPSTREAM_SERVER_ERROR" },
  { mode: "401", code: "UPSTREAM_UNAUTHORIZED" },
];

for (const { mode, code } of definiteFaults) {
  test(`a ${mode} answer keeps the form and says ${code}; the next submit is a fresh attempt`, async ({ page }) => {
    const customer = newCustomer();
    const reference = `FAULT-${mode}-${uniqueReferenceTail()}`;
    const urls = watchUrls(page);
    await fillRemoteForm(page, customer, reference);
    const mark = await markCalls();
    await injectFault(mode, upstreamPaths.remote);

    await attestAndSubmit(page, "Issue remote token");
    const alert = page.getByTestId("issue-alert");
    await expect(alert).toHaveAttribute("data-code", code);
    await expect(alert).toContainText(errorCatalog[code].userMessage);
    await expect(alert).not.toContainText(/verification failed/i);
    await expectFormStillFilled(page, customer, reference);
    if (mode === "502-html") await page.screenshot({ path: "/tmp/tokens-fault-502.png", fullPage: true });
    // The reference the teller reads to support finds the service call in the server log.
    const supportReference = /Reference for support: (\S+)/.exec((await page.getByTestId("support-code").textContent()) ?? "")?.[1];
    expect(supportReference).toBeDefined();
    await expect
      .poll(() => serverLogLines().some((line) => line.msg === "upstream call failed" && line.requestId === supportReference && line.errorCode === code))
      .toBe(true);

    // The service certainly issued nothing: sending again is a new attempt, and it succeeds.
    await attestAndSubmit(page, "Issue remote token");
    await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
    expect(await callsSince(mark, upstreamPaths.remote)).toHaveLength(2);
    expectNowhere(secretFormsOf(customer), { urls });
  });
}

test("an unreadable 200 keeps the form and says the token may exist", async ({ page }) => {
  const customer = newCustomer();
  const reference = `FAULT-MALFORMED-${uniqueReferenceTail()}`;
  await fillRemoteForm(page, customer, reference);
  const mark = await markCalls();
  await injectFault("malformed-json", upstreamPaths.remote);

  await attestAndSubmit(page, "Issue remote token");
  const alert = page.getByTestId("issue-alert");
  await expect(alert).toHaveAttribute("data-code", "UPSTREAM_MALFORMED");
  await expect(alert).toContainText(errorCatalog.UPSTREAM_MALFORMED.userMessage);
  await expectFormStillFilled(page, customer, reference);

  // Sending the same form again is answered from the first attempt: no second call.
  await attestAndSubmit(page, "Issue remote token");
  await expect(alert).toHaveAttribute("data-code", "UPSTREAM_MALFORMED");
  expect(await callsSince(mark, upstreamPaths.remote)).toHaveLength(1);
});

test("a timeout leaves an outcome-unknown row; a new attempt is a deliberate step, not stopped by the unknown one", async ({ page, context }) => {
  test.setTimeout(90_000);
  const customer = newCustomer();
  const reference = `FAULT-HANG-${uniqueReferenceTail()}`;
  const urls = watchUrls(page);
  await fillRemoteForm(page, customer, reference);
  const mark = await markCalls();
  await injectFault("hang", upstreamPaths.remote);

  const startedAt = Date.now();
  await attestAndSubmit(page, "Issue remote token");
  await expect(page.getByRole("button", { name: "Issuing token…" })).toBeDisabled();
  const alert = page.getByTestId("issue-alert");
  await expect(alert).toHaveAttribute("data-code", "UPSTREAM_TIMEOUT", { timeout: 30_000 });
  const waitedMs = Date.now() - startedAt;
  await expect(alert).toContainText(errorCatalog.UPSTREAM_TIMEOUT.userMessage);
  await expectFormStillFilled(page, customer, reference);
  await page.screenshot({ path: "/tmp/tokens-fault-timeout.png", fullPage: true });
  test.info().annotations.push({ type: "timeout wait", description: `${waitedMs} ms from click to message` });

  // The token list shows the attempt as "outcome unknown".
  const list = await context.newPage();
  await list.goto("/tokens");
  const row = list.getByTestId("dashboard-row").filter({ hasText: reference });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("data-state", "outcome_unknown");
  await expect(row).toContainText("Outcome unknown");
  await list.screenshot({ path: "/tmp/tokens-list.png", fullPage: true });
  await list.close();

  // Sending the same form again does not call the service a second time.
  await attestAndSubmit(page, "Issue remote token");
  await expect(alert).toHaveAttribute("data-code", "UPSTREAM_TIMEOUT");
  expect(await callsSince(mark, upstreamPaths.remote)).toHaveLength(1);

  // A new attempt is deliberate: the teller starts it. The unknown attempt has no token and is
  // final, so it raises no "token without a result" warning (a finished token never does).
  await page.getByRole("button", { name: "Start a new attempt" }).click();
  await attestAndSubmit(page, "Issue remote token");
  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
  expect(await callsSince(mark, upstreamPaths.remote)).toHaveLength(2);
  expectNowhere(secretFormsOf(customer), { urls });
});
