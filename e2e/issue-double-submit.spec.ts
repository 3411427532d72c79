import type { Page } from "@playwright/test";
import { newCustomer, uniqueReferenceTail, type TestCustomer } from "./support/customers";
import { callsSince, markCalls, upstreamPaths } from "./support/sandbox";
import { callAction, captureNextAction, readActionResult } from "./support/server-actions";
import { expect, test } from "./support/session";
import { attestAndSubmit, attestConsent, choosePurpose } from "./support/token-forms";

/** Nothing doubled: every way of sending one form twice yields one upstream POST and one token row. */

async function fillFingerprintForm(page: Page, customer: TestCustomer, reference: string): Promise<void> {
  await page.goto("/tokens/new/fingerprint");
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await page.getByLabel("Reference").fill(reference);
  await choosePurpose(page, "KYC refresh");
  await attestConsent(page);
}

async function expectOneRow(page: Page, reference: string): Promise<void> {
  await page.goto("/tokens");
  await expect(page.getByTestId("dashboard-row").filter({ hasText: reference })).toHaveCount(1);
}

test("a double click", async ({ page }) => {
  const reference = `DBLCLICK-${uniqueReferenceTail()}`;
  await fillFingerprintForm(page, newCustomer(), reference);
  const mark = await markCalls();
  await attestConsent(page);
  await page.getByRole("button", { name: "Issue fingerprint token" }).dblclick();
  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
  expect(await callsSince(mark, upstreamPaths.fingerprint)).toHaveLength(1);
  await expectOneRow(page, reference);
});

test("a fast double submit (two submits in one tick)", async ({ page }) => {
  const reference = `DBLSUBMIT-${uniqueReferenceTail()}`;
  await fillFingerprintForm(page, newCustomer(), reference);
  const mark = await markCalls();
  await page.evaluate(() => {
    const form = document.querySelector<HTMLFormElement>("form[aria-label='Fingerprint token']")!;
    form.requestSubmit();
    form.requestSubmit();
  });
  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
  expect(await callsSince(mark, upstreamPaths.fingerprint)).toHaveLength(1);
  await expectOneRow(page, reference);
});

test("a retry after the answer was lost is answered from the first attempt", async ({ page }) => {
  const reference = `LOST-${uniqueReferenceTail()}`;
  await fillFingerprintForm(page, newCustomer(), reference);
  const mark = await markCalls();
  // The server receives and completes the first submit; its answer never reaches the browser.
  let isFirst = true;
  await page.route("**/tokens/new/fingerprint", async (route) => {
    if (route.request().method() === "POST" && isFirst) {
      isFirst = false;
      await route.fetch();
      return route.abort("connectionreset");
    }
    return route.continue();
  });
  await attestAndSubmit(page, "Issue fingerprint token");
  await expect(page.getByTestId("issue-alert")).toHaveAttribute("data-code", "UPSTREAM_CONNECTION_LOST");
  await expect(page.getByLabel("Reference")).toHaveValue(reference);
  const firstCalls = await callsSince(mark, upstreamPaths.fingerprint);
  expect(firstCalls).toHaveLength(1);

  await attestAndSubmit(page, "Issue fingerprint token");
  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("token-value")).toHaveText(firstCalls[0]!.token!);
  expect(await callsSince(mark, upstreamPaths.fingerprint)).toHaveLength(1);
  await page.unroute("**/tokens/new/fingerprint");
  await expectOneRow(page, reference);
});

test("two tabs sending the same key at once, and the same key with other fields", async ({ page }) => {
  const reference = `TWOTABS-${uniqueReferenceTail()}`;
  await fillFingerprintForm(page, newCustomer(), reference);
  // The form's real request (action id, headers, typed arguments with its idempotency key).
  const captured = await captureNextAction(page, () => attestAndSubmit(page, "Issue fingerprint token"), { block: true });
  const mark = await markCalls();

  const answers = await Promise.all([1, 2, 3].map(() => callAction(page.request, captured, captured.args)));
  const results = answers.map((answer) => readActionResult(answer.text));
  expect(results.every((result) => result.ok)).toBe(true);
  const ids = new Set(results.map((result) => result.data?.tokenRequestId));
  expect(ids.size).toBe(1);
  expect(results.filter((result) => result.data?.replayed === false)).toHaveLength(1);
  expect(await callsSince(mark, upstreamPaths.fingerprint)).toHaveLength(1);

  const [values] = captured.args as [Record<string, unknown>];
  const altered = readActionResult((await callAction(page.request, captured, [{ ...values, referenceId: "SOMETHING-ELSE" }])).text);
  expect(altered).toMatchObject({ ok: false, code: "IDEMPOTENCY_KEY_REUSED" });
  expect(altered.formError).toContain("already sent with other details");
  expect(await callsSince(mark, upstreamPaths.fingerprint)).toHaveLength(1);
  await expectOneRow(page, reference);
});
