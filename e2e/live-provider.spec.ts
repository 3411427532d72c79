import type { Page } from "@playwright/test";
import { newCustomer } from "./support/customers";
import { addFault, callsSince, clearFaults, listSandboxTokens, markCalls, messagesFor, setNoResultShape, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { attestAndSubmit, chooseIdType, fillContact, openRemoteForm } from "./support/token-forms";
import { issueRemoteToken, LIVE_TIMEOUT, sandboxPost, sandboxToken, startRemoteVerification, statusPaths } from "@/e2e/support/live";
import type { TodayTokensResponse } from "@/lib/live/dto";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { signInByApi } from "@/e2e/support/auth";

/**
 * The real provider is slow and odd (ADR 0017; shared/spec/provider-notes.md), and the sandbox
 * reproduces it: an issuing answer that comes late, one that never comes although the token was
 * created and its SMS sent, status calls about one token that hang, and token_status answering
 * "no result yet" in shapes the spec does not show. Each is driven here through the teller's page.
 * The e2e app waits 12 s for an issuing answer (playwright.config.ts), production 30 s.
 */

test.afterEach(async () => {
  await clearFaults();
  await setNoResultShape("message");
});

async function fillRemoteGhanaCard(page: Page) {
  const customer = newCustomer();
  await openRemoteForm(page);
  await chooseIdType(page, "Ghana Card");
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await fillContact(page, customer);
}

test("a slow issuing answer: the teller sees the seconds go by, and the token the service created is followed", async ({ page }) => {
  test.setTimeout(90_000);
  await fillRemoteGhanaCard(page);
  await addFault({ mode: "slow", path: upstreamPaths.remote, delayMs: 7_000 });
  const mark = await markCalls();

  await attestAndSubmit(page, "Issue remote token");
  const progress = page.getByTestId("issue-progress");
  await expect(progress).toContainText("Asking the verification service");
  await expect(progress).toContainText("The service is slow", { timeout: 8_000 });
  await expect(progress).toContainText("never sends the request twice");
  const elapsed = Number((await page.getByTestId("issue-elapsed").textContent())!.replace(/\D/g, ""));
  expect(elapsed).toBeGreaterThanOrEqual(5);
  await page.screenshot({ path: "/tmp/provider-issue-slow.png", fullPage: true });

  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  const [created] = (await callsSince(mark, upstreamPaths.remote)).map((call) => call.token);
  await expect(page.getByTestId("token-value")).toHaveText(created!);
  await expect(page.getByTestId("delivery")).toContainText("SMS to");
  await expect(page.getByTestId("state-badge")).toHaveText("Waiting for customer");
});

test("an issuing answer that never comes: the attempt says a link may have gone out, and a supervisor enters the token from the customer's SMS", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const tokensBefore = new Set((await listSandboxTokens()).map((record) => record.token));
  // A token this teller already follows, to show one token is never attached to two attempts.
  const { token: alreadyFollowed } = await issueRemoteToken(page, newCustomer());

  await fillRemoteGhanaCard(page);
  await addFault({ mode: "hang", path: upstreamPaths.remote });
  await attestAndSubmit(page, "Issue remote token");
  const alert = page.getByTestId("issue-alert");
  await expect(alert).toHaveAttribute("data-code", "UPSTREAM_TIMEOUT", { timeout: 30_000 });
  await expect(alert).toContainText("may still have created the token");
  await page.getByTestId("open-attempt").click();
  await page.waitForURL(/\/tokens\/[0-9a-f-]{36}$/);
  const attemptUrl = page.url();

  await expect(page.getByTestId("state-badge")).toHaveText("Outcome unknown");
  await expect(page.getByTestId("outcome")).toContainText("may still have created it and sent the link");
  await expect(page.getByTestId("delivery")).toHaveAttribute("data-unconfirmed", "true");
  await expect(page.getByText("Link may have gone to")).toBeVisible();
  await expect(page.getByTestId("delivery")).toContainText("SMS to");
  // Entering the token is a supervisor's act (ADR 0037): the teller is told whom to ask, no form.
  await expect(page.getByTestId("ask-supervisor")).toContainText("Ask a supervisor to enter the token from the customer's SMS");
  await expect(page.getByTestId("sms-token-form")).toHaveCount(0);
  await page.screenshot({ path: "/tmp/provider-attempt-unknown.png", fullPage: true });

  // The provider did create a token and send its SMS: the customer shows it to the supervisor.
  const created = (await listSandboxTokens()).filter((record) => !tokensBefore.has(record.token) && record.token !== alreadyFollowed);
  expect(created).toHaveLength(1);
  const [sms] = await messagesFor(created[0]!.token);
  expect(sms?.channel).toBe("sms");

  const supervisorContext = await browser.newContext({ storageState: await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password) });
  const supervisor = await supervisorContext.newPage();
  await supervisor.goto(attemptUrl);
  await expect(supervisor.getByTestId("outcome")).toContainText("read its token on the customer's own phone");
  await expect(supervisor.getByTestId("ask-supervisor")).toHaveCount(0);
  const tokenField = supervisor.getByRole("textbox", { name: "Token from the customer's SMS" });
  const submit = supervisor.getByRole("button", { name: "Check and follow this token" });
  await tokenField.fill("ZZZZ9999");
  await submit.click();
  await expect(supervisor.getByText("does not know this token")).toBeVisible();
  await expect(supervisor.getByText("Tokens can mix the letter O")).toHaveCount(0);
  // Read aloud, O and 0 sound alike: the service does not know this spelling, and Veridesk says
  // which characters to check instead of trying others itself.
  await tokenField.fill("zzo 9o9 9");
  await expect(supervisor.getByTestId("typed-token")).toContainText("letter Z, letter Z, letter O, digit 9, letter O, digit 9, digit 9");
  await submit.click();
  await expect(supervisor.getByText("Tokens can mix the letter O and the digit 0, and I and 1: check those characters with the customer.")).toBeVisible();
  await tokenField.fill(alreadyFollowed);
  await submit.click();
  await expect(supervisor.getByText("already recorded for another verification")).toBeVisible();
  await expect(supervisor.getByTestId("state-badge")).toHaveText("Outcome unknown");

  // Typed as read out: lower case, with spaces.
  const readOut = created[0]!.token.toLowerCase().replace(/(.{3})/g, "$1 ").trim();
  await tokenField.fill(readOut);
  await submit.click();
  await expect(supervisor.getByTestId("token-value")).toHaveText(created[0]!.token, { timeout: 10_000 });
  await expect(supervisor.getByTestId("state-badge")).toHaveText("Waiting for customer", { timeout: LIVE_TIMEOUT });
  await expect(supervisor.getByRole("timer")).toBeVisible();
  await expect(supervisor.getByTestId("sms-token-form")).toHaveCount(0);
  await expect(supervisor.getByTestId("token-timeline")).toContainText("Token from the customer's SMS entered");
  await expect(supervisor.getByTestId("token-timeline")).toContainText("Entered by supervisor.kumasi");
  await supervisor.screenshot({ path: "/tmp/provider-attempt-recovered.png", fullPage: true });

  // The teller's page shows the token followed from now on.
  await page.reload();
  await expect(page.getByTestId("token-value")).toHaveText(created[0]!.token);
  await expect(page.getByTestId("state-badge")).toHaveText("Waiting for customer", { timeout: LIVE_TIMEOUT });

  // Followed from now on: the customer finishes and the result shows.
  const customer = await startRemoteVerification(browser, created[0]!.token);
  await customer.finish("SUCCESSFUL");
  await expect(page.getByTestId("state-badge")).toHaveText("Successful", { timeout: LIVE_TIMEOUT });
  await expect(page.getByTestId("transaction-number")).toHaveText((await sandboxToken(created[0]!.token)).result!.transactionNumber);
  await supervisorContext.close();

  // Every token the sandbox issued in this test is one the app follows: count both.
  const issuedBySandbox = (await listSandboxTokens()).filter((record) => !tokensBefore.has(record.token)).map((record) => record.token);
  const today = (await (await page.context().request.get("/api/tokens?scope=today")).json()) as TodayTokensResponse;
  const followedByApp = today.tokens.map((token) => token.token).filter((token): token is string => token !== null);
  expect(issuedBySandbox).toHaveLength(2);
  expect(issuedBySandbox.filter((token) => !followedByApp.includes(token))).toEqual([]);
});

for (const shape of ["html404", "empty", "message"] as const) {
  test(`token_status answering "no result yet" as ${shape} is a verification in progress, never a fault`, async ({ page, browser }) => {
    test.setTimeout(90_000);
    await setNoResultShape(shape);
    const { token } = await issueRemoteToken(page, newCustomer());
    const customer = await startRemoteVerification(browser, token);
    const badge = page.getByTestId("state-badge");
    await expect(badge).toHaveText("Verification in progress", { timeout: LIVE_TIMEOUT });

    // Several polls of token_status answered the odd way: still live, no warning.
    const mark = await markCalls();
    await expect.poll(async () => (await callsSince(mark, statusPaths.result)).filter((call) => call.token === token).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId("connection-status")).toHaveAttribute("data-freshness", "live");
    await expect(page.getByTestId("service-problem")).toHaveCount(0);
    // Inside main: Next's route announcer (role="alert", in its own shadow root) is no warning.
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
    if (shape === "html404") await page.screenshot({ path: "/tmp/provider-no-result-html404.png" });

    await customer.finish("SUCCESSFUL");
    await expect(badge).toHaveText("Successful", { timeout: 10_000 });
  });
}

test("one token whose status calls hang delays no other token, and its own page says so in live words", async ({ page, browser, context }) => {
  test.setTimeout(120_000);
  const held = await issueRemoteToken(page, newCustomer());
  const other = await context.newPage();
  const { token } = await issueRemoteToken(other, newCustomer());
  await addFault({ mode: "hang", token: held.token, count: 10_000 });

  // The held token's page: a live warning within one cadence of the first timed-out call, never the issuing wording.
  const problem = page.getByTestId("service-problem");
  await expect(problem).toContainText("did not answer in time", { timeout: 30_000 });
  await expect(problem).toContainText("This is not a failed verification");
  await expect(problem).not.toContainText("may or may not exist");
  await page.screenshot({ path: "/tmp/provider-held-token.png" });

  // Meanwhile the other customer finishes, and their result shows as promptly as ever.
  const customer = await startRemoteVerification(browser, token);
  await customer.finish("SUCCESSFUL");
  const finishedAt = Date.now();
  await expect(other.getByTestId("state-badge")).toHaveText("Successful", { timeout: 10_000 });
  const delayMs = Date.now() - finishedAt;
  test.info().annotations.push({ type: "delay while another token hangs", description: `${delayMs} ms` });
  expect(delayMs).toBeLessThan(8_000);

  // The service answers about the held token again: the warning clears.
  await clearFaults();
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-freshness", "live", { timeout: 45_000 });
  await expect(problem).toHaveCount(0);
});

test("a 429 from the service pauses the watcher for its Retry-After, says so (to the teller and on the admin's Operations page), and carries on", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const { token } = await issueRemoteToken(page, newCustomer());
  await addFault({ mode: "429", path: statusPaths.state, token, retryAfterSeconds: 15 });
  const problem = page.getByTestId("service-problem");
  await expect(problem).toContainText("asked Veridesk to slow down", { timeout: 15_000 });
  const [refused] = (await callsSince(0, statusPaths.state)).filter((call) => call.token === token && call.status === 429);

  // The administrator sees the pause and its cause: the backlog is visible to an admin.
  const admin = await browser.newContext({ storageState: await signInByApi("admin", demoAccount("admin").password) });
  const operations = await admin.newPage();
  await operations.goto(new URL("/admin/operations", page.url()).toString());
  const budget = operations.getByTestId("provider-budget");
  await expect(budget.getByText("Paused", { exact: true })).toBeVisible();
  await expect(budget).toContainText("429 from the service, Retry-After 15000 ms");
  await expect(operations.getByTestId("watcher-backlog")).toContainText("Open tokens followed");
  await admin.close();

  // Nothing is asked during the pause (of any token), then polling resumes and the warning clears.
  const pauseSeenFor = Date.now() - Date.parse(refused!.at);
  if (pauseSeenFor < 3_000) await page.waitForTimeout(3_000 - pauseSeenFor);
  // (A poll already under way when the 429 came may still make its second call: allow a moment.)
  const askedDuringPause = (await callsSince(refused!.id)).filter(
    (call) => (call.path === statusPaths.state || call.path === statusPaths.result) && Date.parse(call.at) > Date.parse(refused!.at) + 1_500,
  );
  expect(askedDuringPause).toEqual([]);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-freshness", "live", { timeout: 30_000 });
  await sandboxPost(`/sandbox/api/tokens/${token}/use`);
  await expect(page.getByTestId("state-badge")).toHaveText("Verification in progress", { timeout: LIVE_TIMEOUT });
});
