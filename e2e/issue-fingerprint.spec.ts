import { axeViolations } from "./support/axe";
import { newCustomer, secretFormsOf } from "./support/customers";
import { expectNowhere, watchUrls } from "./support/privacy";
import { callsSince, markCalls, messagesFor, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { attestAndSubmit, choosePurpose, shownToken, submitAndOpenToken } from "./support/token-forms";

test("a teller issues a fingerprint token: one JSON call with exactly the spec's fields, then the token page", async ({ page }) => {
  const customer = newCustomer();
  const urls = watchUrls(page);
  const mark = await markCalls();

  await page.goto("/tokens/new/fingerprint");
  await expect(page.getByRole("link", { name: /Fingerprint/ })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("branch-name")).toHaveText("Kumasi – Adum");

  // Typed the way tellers type it: lower case, spaces, no dashes. The input formats as it goes.
  const cardInput = page.getByLabel("Ghana Card number");
  await cardInput.pressSequentially(customer.ghanaCardNumber.replace(/-/g, " ").toLowerCase());
  await expect(cardInput).toHaveValue(customer.ghanaCardNumber);
  await page.getByLabel("Reference").fill(customer.phoneTyped);
  await choosePurpose(page, "KYC refresh");
  await expect(page.getByRole("combobox", { name: "Purpose" })).toHaveValue("KYC refresh");
  await page.screenshot({ path: "/tmp/tokens-fingerprint-form.png", fullPage: true });

  const tokenRequestId = await submitAndOpenToken(page, "Issue fingerprint token");
  await expect(page.getByRole("heading", { name: "Fingerprint token" })).toBeVisible();
  const token = await shownToken(page);
  await expect(page.getByText(`GHA-•••••${customer.ghanaCardNumber.slice(10, 13)}-${customer.ghanaCardNumber.slice(-1)}`).first()).toBeVisible();
  await page.screenshot({ path: "/tmp/tokens-fingerprint-issued.png", fullPage: true });

  const calls = await callsSince(mark, upstreamPaths.fingerprint);
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ method: "POST", status: 200, token, contentType: expect.stringContaining("application/json") });
  expect(calls[0]!.fields).toEqual({
    id_number: customer.ghanaCardNumber,
    referenceid: customer.phoneLocal,
    purpose: "KYC refresh",
    branch_name: "Kumasi – Adum",
  });
  // A fingerprint token is handed over at the counter: the service sends nothing.
  expect(await messagesFor(token)).toEqual([]);

  // The token page is addressed by the request's uuid, never by anything of the customer's.
  expect(page.url()).toContain(`/tokens/${tokenRequestId}`);
  expectNowhere(secretFormsOf(customer), { urls });
});

test("the token page is never cached", async ({ page }) => {
  const customer = newCustomer();
  await page.goto("/tokens/new/fingerprint");
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await page.getByLabel("Reference").fill("REF-CACHE");
  await choosePurpose(page, "KYC refresh");
  await submitAndOpenToken(page, "Issue fingerprint token");
  const response = await page.request.get(page.url());
  expect(response.headers()["cache-control"]).toContain("no-store");
});

test("the same customer's active token is shown, with a link, before another is issued", async ({ page }) => {
  const customer = newCustomer();
  const mark = await markCalls();
  await page.goto("/tokens/new/fingerprint");
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await page.getByLabel("Reference").fill("FIRST");
  await choosePurpose(page, "KYC refresh");
  const firstId = await submitAndOpenToken(page, "Issue fingerprint token");

  // The same card, typed differently, on the remote form.
  await page.goto("/tokens/new/remote");
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber.replace(/-/g, "").toLowerCase());
  await page.getByLabel("Customer's mobile number").fill(customer.phoneTyped);
  await choosePurpose(page, "Account opening");
  await attestAndSubmit(page, "Issue remote token");
  const warning = page.getByTestId("active-token-warning");
  await expect(page.getByRole("alert").filter({ has: warning })).toContainText("This customer already has a token without a result");
  await expect(warning).toContainText(/A fingerprint Ghana Card token waiting for the customer \(issued \d\d:\d\d by Kwame Asante, 1[45] min left\)/);
  // Only the first token was issued (the watcher's status calls about it are not issuing calls).
  expect(await callsSince(mark, upstreamPaths.fingerprint)).toHaveLength(1);
  expect(await callsSince(mark, upstreamPaths.remote)).toHaveLength(0);

  await warning.getByRole("link", { name: "Open this token" }).click();
  await page.waitForURL(`**/tokens/${firstId}`);
});

test("the token screens pass an accessibility scan", async ({ page }) => {
  const scan = async (name: string) => {
    const violations = await axeViolations(page, { tags: ["wcag2a", "wcag2aa"] });
    expect(violations.map((violation) => `${name}: ${violation.id} (${violation.nodes.length})`)).toEqual([]);
  };
  await page.goto("/tokens/new/fingerprint");
  await scan("fingerprint form");
  await page.goto("/tokens/new/remote");
  await attestAndSubmit(page, "Issue remote token");
  await expect(page.locator("#phoneNumber-error")).not.toBeEmpty();
  await scan("remote form with errors");
  await page.getByRole("radio", { name: "Driver licence" }).check();
  await scan("remote form, driver licence");
  await page.goto("/tokens/new/fingerprint");
  await page.getByLabel("Ghana Card number").fill(newCustomer().ghanaCardNumber);
  await page.getByLabel("Reference").fill("A11Y");
  await choosePurpose(page, "KYC refresh");
  await submitAndOpenToken(page, "Issue fingerprint token");
  await scan("token page");
  await page.goto("/tokens");
  await scan("token list");
});
