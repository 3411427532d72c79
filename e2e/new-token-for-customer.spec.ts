import type { Browser, BrowserContext, Page } from "@playwright/test";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { createTestAccount, readBranchIds, requestWith, signInByApi, uniqueSuffix, type StorageState } from "@/e2e/support/auth";
import { callServerAction } from "@/e2e/support/action-calls";
import { liveFixtures } from "@/e2e/support/live-fixtures";
import { LIVE_TIMEOUT, startRemoteVerification } from "@/e2e/support/live";
import { newCustomer, secretFormsOf, type TestCustomer } from "./support/customers";
import { callsSince, clearFaults, injectFault, markCalls, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { attestAndSubmit, attestConsent, fillContact, openRemoteForm, shownToken } from "./support/token-forms";
import { remoteSubmissionOptions } from "@/test/kit/submission-options";

/**
 * "New token for this customer" (ADR 0038). The earlier token's details are its issuer's alone:
 * a colleague at the same branch gets the empty form and a plain note; the issuer's form shows each
 * detail masked, never in the page, and the issuing action fills them in on the server. Every read
 * is in the audit trail. After an outcome unknown too: the home page's banner leads to the attempt
 * (or to the list of them), whose page offers the new token — at 1280, 768 and 390 px, screenshots
 * kept with the run's results.
 */

const appUrl = () => process.env.APP_URL!;
const remoteActionRef = { file: "app/(staff)/tokens/new/remote/actions.ts", name: "issueRemoteTokenAction" };

test.afterEach(async () => {
  await clearFaults();
});

/** Every full form of the customer's details a page could leak: ID numbers, phone, e-mail. */
function secretsOf(customer: TestCustomer): string[] {
  return [...secretFormsOf(customer), customer.phoneLocal, customer.phoneTyped];
}

/** `GHA-123456789-0` → `GHA-•••••789-0`, as the form shows a kept Ghana Card number. */
function maskedCard(card: string): string {
  return `GHA-•••••${card.slice(10, 13)}-${card.slice(14)}`;
}

/** The text of every page and RSC answer the app sent, and every body the browser posted to it. */
function recordTraffic(page: Page): () => Promise<string> {
  const texts: Promise<string>[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(appUrl())) texts.push(Promise.resolve(request.postData() ?? ""));
  });
  page.on("response", (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (response.url().startsWith(appUrl()) && (type.includes("text/html") || type.includes("text/x-component"))) texts.push(response.text().catch(() => ""));
  });
  return async () => (await Promise.all(texts)).join("\n");
}

async function signedInContext(browser: Browser, state: StorageState): Promise<BrowserContext> {
  return browser.newContext({ baseURL: appUrl(), storageState: state });
}

/** A remote Ghana Card token with SMS and e-mail, by the signed-in teller; answers its id and token. */
async function issueRemote(page: Page, customer: TestCustomer): Promise<{ id: string; token: string }> {
  await openRemoteForm(page);
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await fillContact(page, customer, { email: true });
  await attestAndSubmit(page, "Issue remote token");
  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
  return { id: page.url().split("/").pop()!, token: await shownToken(page) };
}

/**
 * Presses Issue and lands on the new token. The earlier token may still count as the customer's
 * active one (an attempt of unknown outcome does): the teller then goes on deliberately.
 */
async function issueFromRestartForm(page: Page, button: string, earlierId: string): Promise<string> {
  await attestAndSubmit(page, button);
  const warning = page.getByTestId("active-token-warning");
  const newTokenUrl = /\/tokens\/[0-9a-f-]{36}$/;
  await expect(async () => expect(newTokenUrl.test(page.url()) || (await warning.isVisible())).toBe(true)).toPass({ timeout: 15_000 });
  if (!newTokenUrl.test(page.url())) await page.getByRole("button", { name: "Issue another token anyway" }).click();
  await page.waitForURL(newTokenUrl);
  const id = page.url().split("/").pop()!;
  expect(id).not.toBe(earlierId);
  return id;
}

/** The audit trail's rows about one token request, as its branch supervisor exports them. */
async function auditRowsAbout(tokenRequestId: string, action: string): Promise<string[]> {
  const supervisor = await requestWith(await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password));
  try {
    const response = await supervisor.get(`/api/review/audit-export?action=${encodeURIComponent(action)}`);
    expect(response.status()).toBe(200);
    return (await response.text()).split("\n").filter((line) => line.includes(`token_request:${tokenRequestId}`));
  } finally {
    await supervisor.dispose();
  }
}

test("only the issuer starts a new token from a failed one: a colleague at the branch gets the empty form; the issuer's details stay on the server and are audited", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const customer = newCustomer();
  const secrets = secretsOf(customer);

  // teller.kumasi's remote token; the customer's verification fails.
  const { id, token } = await issueRemote(page, customer);
  const verification = await startRemoteVerification(browser, token);
  await verification.finish("FAILED", "Face does not match the ID photo");
  await expect(page.getByTestId("state-badge")).toHaveText("Failed", { timeout: LIVE_TIMEOUT });

  // A second teller of Kumasi, made the way administrators make one.
  const adminState = await signInByApi("admin", demoAccount("admin").password);
  const adminContext = await signedInContext(browser, adminState);
  const branchIds = await readBranchIds(await adminContext.newPage());
  await adminContext.close();
  const admin = await requestWith(adminState);
  const colleague = await createTestAccount(admin, { username: `colleague.${uniqueSuffix()}`, name: "Yaa Colleague", role: "teller", branchCode: "KUM" }, branchIds);
  await admin.dispose();
  const colleagueState = await signInByApi(colleague.username, colleague.password);

  // The colleague: no link on the token page; the address typed anyway gives the empty form.
  const colleagueContext = await signedInContext(browser, colleagueState);
  const colleaguePage = await colleagueContext.newPage();
  const colleagueTraffic = recordTraffic(colleaguePage);
  await colleaguePage.goto(`/tokens/${id}`);
  await expect(colleaguePage.getByTestId("state-badge")).toHaveText("Failed");
  await expect(colleaguePage.getByTestId("new-token-for-customer")).toHaveCount(0);
  await colleaguePage.goto(`/tokens/new/remote?from=${id}`);
  await expect(colleaguePage.getByTestId("restart-notice")).toContainText("Only the teller who issued that token can start a new one from it");
  await expect(colleaguePage.getByLabel("Ghana Card number")).toHaveValue("");
  await expect(colleaguePage.getByLabel("Customer's mobile number")).toHaveValue("");
  await expect(colleaguePage.getByLabel("E-mail")).toHaveValue("");
  await expect(colleaguePage.getByText("from the earlier token")).toHaveCount(0);
  const colleagueSaw = await colleagueTraffic();
  for (const secret of secrets) expect(colleagueSaw, `the colleague's pages hold ${secret}`).not.toContain(secret);
  await colleagueContext.close();

  // The page is not what refuses: the issuing action, called directly, refuses the colleague too.
  const colleagueApi = await requestWith(colleagueState);
  const mark = await markCalls();
  const direct = await callServerAction(colleagueApi, remoteActionRef, {
    idType: "GHANA_CARD",
    purpose: "Account opening",
    ...remoteSubmissionOptions,
    idempotencyKey: crypto.randomUUID(),
    allowDuplicate: true,
    restartFrom: id,
    carriedFields: ["ghanaCardNumber", "phoneNumber", "email", "referenceId"],
  });
  await colleagueApi.dispose();
  expect(direct.result).toMatchObject({ ok: false, code: "FORBIDDEN", formError: "Only the teller who issued that token can start a new one from it." });
  for (const secret of secrets) expect(direct.text).not.toContain(secret);
  expect(await callsSince(mark, upstreamPaths.remote)).toHaveLength(0);

  // The issuer: the link, then each of the customer's details masked, none of them in the page.
  const issuerTraffic = recordTraffic(page);
  await page.getByTestId("new-token-for-customer").click();
  await page.waitForURL(`**/tokens/new/remote?from=${id}`);
  await expect(page.getByTestId("restart-notice")).toContainText("New token for the same customer");
  await expect(page.getByRole("radio", { name: "Ghana Card" })).toBeChecked();
  await expect(page.getByRole("combobox", { name: "Purpose" })).toHaveValue("Account opening");
  await expect(page.getByLabel("Ghana Card number")).toHaveText(`${maskedCard(customer.ghanaCardNumber)} — from the earlier token`);
  await expect(page.getByLabel("Customer's mobile number")).toHaveText(`024 ••• ${customer.phoneLocal.slice(-4)} — from the earlier token`);
  await expect(page.getByLabel("E-mail")).toHaveText("c•••@example.com — from the earlier token");
  await page.reload();
  await expect(page.getByLabel("Ghana Card number")).toContainText(maskedCard(customer.ghanaCardNumber));

  const issueMark = await markCalls();
  const newId = await issueFromRestartForm(page, "Issue remote token", id);
  const calls = await callsSince(issueMark, upstreamPaths.remote);
  expect(calls).toHaveLength(1);
  expect(calls[0]!.fields).toMatchObject({ id_type: "GHANA_CARD", ghanacardnumber: customer.ghanaCardNumber, phonenumber: customer.phoneLocal, email: customer.email, purpose: "Account opening" });
  await expect(page.getByTestId("delivery")).toContainText(`SMS to 024 ••• ${customer.phoneLocal.slice(-4)}`);
  const issuerSaw = await issuerTraffic();
  for (const secret of secrets) expect(issuerSaw, `the issuer's pages or posts hold ${secret}`).not.toContain(secret);
  expect(newId).toMatch(/^[0-9a-f-]{36}$/);

  // On record: the colleague's two refusals, the issuer's form (twice: the reload) and the issue; never a value.
  const refusals = await auditRowsAbout(id, "token.restart_values_refused");
  expect(refusals).toHaveLength(2);
  for (const row of refusals) expect(row).toContain(colleague.username);
  const uses = await auditRowsAbout(id, "token.restart_values_used");
  expect(uses.filter((row) => row.includes('""use"":""form""'))).toHaveLength(2);
  expect(uses.filter((row) => row.includes('""use"":""issue""'))).toHaveLength(1);
  for (const row of [...refusals, ...uses]) for (const secret of secrets) expect(row).not.toContain(secret);
});

test("a link from another site opens the empty form: nothing read, nothing recorded", async ({ page }) => {
  const expired = liveFixtures.expiredRemote;
  const before = (await auditRowsAbout(expired.id, "token.restart_values_used")).length;
  const crossSite = await page.request.get(`/tokens/new/remote?from=${expired.id}`, { headers: { "sec-fetch-site": "cross-site" } });
  const html = await crossSite.text();
  expect(html).toContain("Issue remote token");
  expect(html).not.toContain("from the earlier token");
  expect(html).not.toContain("GHA-•••••016-4");
  expect(await auditRowsAbout(expired.id, "token.restart_values_used")).toHaveLength(before);

  // The same address from Veridesk's own page starts from the token, and is recorded.
  const ownSite = await page.request.get(`/tokens/new/remote?from=${expired.id}`, { headers: { "sec-fetch-site": "same-origin" } });
  expect(await ownSite.text()).toContain("GHA-•••••016-4");
  expect(await auditRowsAbout(expired.id, "token.restart_values_used")).toHaveLength(before + 1);
});

test("the fingerprint form keeps a detail until the teller types another: the kept number goes to the service, the typed reference too", async ({ page }, testInfo) => {
  const unknown = liveFixtures.unknownFingerprint;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/tokens/${unknown.id}`);
    await expect(page.getByTestId("state-badge")).toHaveText("Outcome unknown");
    await page.getByTestId("new-token-for-customer").click();
    await page.waitForURL(`**/tokens/new/fingerprint?from=${unknown.id}`);
    await expect(page.getByLabel("Ghana Card number")).toHaveText("GHA-•••••017-2 — from the earlier token");
    await expect(page.getByLabel("Reference")).toHaveText("024 ••• 0017 — from the earlier token");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath(`fingerprint-restart-form-${width}.png`), fullPage: true });
  }
  expect(await page.content()).not.toContain(unknown.ghanaCardNumber);

  await page.getByRole("button", { name: "Type a different one (Reference)" }).click();
  const reference = page.getByRole("textbox", { name: "Reference" });
  await expect(reference).toBeFocused();
  await expect(reference).toHaveValue("");
  await reference.fill("ACC-2026-0042");
  // The kept number still counts as filled: the form goes straight to the service.
  const mark = await markCalls();
  await issueFromRestartForm(page, "Issue fingerprint token", unknown.id);
  const calls = await callsSince(mark, upstreamPaths.fingerprint);
  expect(calls).toHaveLength(1);
  expect(calls[0]!.fields).toMatchObject({ id_number: unknown.ghanaCardNumber, referenceid: "ACC-2026-0042", purpose: "KYC refresh" });
});

for (const width of [1280, 768, 390]) {
  test(`at ${width} px: the home banner leads to an attempt of unknown outcome, whose page offers its issuer a new token with the details kept`, async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    const customer = newCustomer();

    // An issuing answer Veridesk cannot read: the service may have issued a token, outcome unknown.
    await openRemoteForm(page);
    await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
    await fillContact(page, customer, { email: true });
    await injectFault("malformed-json", upstreamPaths.remote);
    await attestAndSubmit(page, "Issue remote token");
    await expect(page.getByTestId("issue-alert")).toHaveAttribute("data-code", "UPSTREAM_MALFORMED");
    const attemptId = (await page.getByTestId("open-attempt").getAttribute("href"))!.split("/").pop()!;

    // Home: the banner links to the token when there is one, to the list of them when several.
    await page.goto("/");
    const banner = page.getByTestId("unknown-outcome-banner");
    const count = Number(/(\d+) tokens? with an unknown outcome/.exec((await banner.textContent()) ?? "")?.[1]);
    expect(count).toBeGreaterThanOrEqual(1);
    await page.screenshot({ path: testInfo.outputPath(`home-banner-${width}.png`), fullPage: true });
    const link = page.getByTestId("unknown-outcome-link");
    if (count === 1) {
      await expect(link).toHaveAttribute("href", `/tokens/${attemptId}`);
      await link.click();
    } else {
      await expect(link).toHaveAttribute("href", "/tokens?state=outcome_unknown");
      await link.click();
      await page.waitForURL("**/tokens?state=outcome_unknown");
      await expect(page.getByRole("button", { name: "Unknown outcome" })).toHaveAttribute("aria-pressed", "true");
      const rows = page.getByTestId("dashboard-row");
      await expect(rows).toHaveCount(count);
      expect(new Set(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-state"))))).toEqual(new Set(["outcome_unknown"]));
      await page.screenshot({ path: testInfo.outputPath(`unknown-list-${width}.png`), fullPage: true });
      // Narrowed to this customer (the ID number's last digits), the banner leads to the attempt itself.
      await page.getByRole("searchbox", { name: "Find a token" }).fill(customer.ghanaCardNumber.slice(10));
      await expect(rows).toHaveCount(1);
      await expect(page.getByTestId("unknown-outcome-link")).toHaveAttribute("href", `/tokens/${attemptId}`);
      await page.getByTestId("unknown-outcome-link").click();
    }

    await page.waitForURL(`**/tokens/${attemptId}`);
    await expect(page.getByTestId("state-badge")).toHaveText("Outcome unknown");
    await expect(page.getByTestId("outcome")).toContainText("issue a new token");
    const newTokenLink = page.getByTestId("new-token-for-customer");
    await expect(newTokenLink).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath(`outcome-unknown-attempt-${width}.png`), fullPage: true });

    await newTokenLink.click();
    await page.waitForURL(`**/tokens/new/remote?from=${attemptId}`);
    await expect(page.getByLabel("Ghana Card number")).toHaveText(`${maskedCard(customer.ghanaCardNumber)} — from the earlier token`);
    await expect(page.getByLabel("Customer's mobile number")).toContainText(`024 ••• ${customer.phoneLocal.slice(-4)}`);
    await expect(page.getByLabel("E-mail")).toContainText("c•••@example.com");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath(`remote-restart-form-${width}.png`), fullPage: true });
    const html = await page.content();
    for (const secret of secretsOf(customer)) expect(html).not.toContain(secret);

    await attestConsent(page);
    const mark = await markCalls();
    await issueFromRestartForm(page, "Issue remote token", attemptId);
    const calls = await callsSince(mark, upstreamPaths.remote);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.fields).toMatchObject({ ghanacardnumber: customer.ghanaCardNumber, phonenumber: customer.phoneLocal, email: customer.email });
  });
}
