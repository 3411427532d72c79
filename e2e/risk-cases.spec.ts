import { demoAccount } from "@/lib/staff/demo-accounts";
import { callServerAction } from "./support/action-calls";
import { newCustomer } from "./support/customers";
import { actOnScanner, issueFingerprintToken, LIVE_TIMEOUT } from "./support/live";
import { expect, test } from "./support/session";

/**
 * The risk rules seen from the desk (ADR 0046): a teller retries one Ghana Card three times in
 * minutes; within seconds a case with its explaining sentence is there for the branch's
 * supervisor and head office, while the teller's menu, pages and `/review/cases` show nothing.
 * A supervisor who reads more ID numbers than rule 8 allows becomes the subject of a staff case
 * that only head office sees, and that takes two people there to clear.
 */

test.use({ account: "teller.kumasi" });

test("a third token for one ID opens a case for the branch supervisor and head office, and nothing for the teller", async ({ page, browser, apiAs }, testInfo) => {
  test.setTimeout(90_000);
  const customer = newCustomer();
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const { token } = await issueFingerprintToken(page, customer);
    if (attempt === 3) break;
    await actOnScanner(browser, token, "FAILED");
    await expect(page.getByTestId("state-badge")).toHaveText("Failed", { timeout: LIVE_TIMEOUT });
  }
  const digits = customer.ghanaCardNumber.replace(/\D/g, "");
  const masked = `GHA-•••••${digits.slice(-4, -1)}-${digits.slice(-1)}`;
  const subject = `ID number ${masked}`;

  for (const account of ["supervisor.kumasi", "supervisor.hq"] as const) {
    const reviewer = await (await browser.newContext({ storageState: await (await apiAs(account)).storageState() })).newPage();
    await expect(async () => {
      await reviewer.goto("/review/cases");
      await expect(reviewer.getByRole("link", { name: subject })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: LIVE_TIMEOUT });
    const row = reviewer.getByRole("row").filter({ has: reviewer.getByRole("link", { name: subject }) });
    await expect(row).toContainText(new RegExp(`ID ${masked.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: 3 tokens in \\d+ min at 1 branch — rule 1 v1, ≥ 3 in 24 h or ≥ 2 branches`));
    await expect(reviewer.getByRole("navigation").getByRole("link", { name: "Cases" })).toBeVisible();
    if (account === "supervisor.kumasi") {
      await row.getByRole("link", { name: subject }).click();
      await expect(reviewer.getByTestId("case-alert")).toContainText("rule 1 v1");
      await expect(reviewer.getByRole("cell", { name: "Until closed" })).toHaveCount(3);
      await reviewer.screenshot({ path: testInfo.outputPath(`risk-case-${account}.png`), fullPage: true });
    }
    await reviewer.context().close();
  }

  // The teller: no menu entry, no page, nothing of the case anywhere they look.
  await page.goto("/");
  await expect(page.getByRole("navigation").getByRole("link", { name: "Cases" })).toHaveCount(0);
  const refused = await page.request.get("/review/cases", { maxRedirects: 0 });
  expect([403, 307]).toContain(refused.status());
  if (refused.status() === 307) expect(new URL(refused.headers().location!, "http://x").searchParams.get("refused")).toBe("/review/cases");
  for (const path of ["/", "/tokens"]) {
    await page.goto(path);
    await expect(page.locator("body")).not.toContainText(/rule \d v\d|Risk cases|held as evidence/);
  }
});

test("a rule change: head office proposes a version, sees its backtest, and a second person approves it", async ({ browser, apiAs }) => {
  test.setTimeout(60_000);
  const reason = "A year and a day: the bank's own review cycle.";
  const proposer = await (await browser.newContext({ storageState: await (await apiAs("supervisor.hq")).storageState() })).newPage();
  await proposer.goto("/review/rules");
  // Rule 4 with a lookback a day longer: a change no other spec's tokens can notice.
  await proposer.getByRole("link", { name: "4. A verified ID's link sent to a new phone" }).click();
  const lookback = proposer.getByLabel("Verified within (days)");
  await lookback.fill("36x");
  await proposer.getByLabel("Why the change").fill(reason);
  await proposer.getByRole("button", { name: "Propose this version" }).click();
  await expect(proposer.getByText("Enter a number.")).toBeVisible();
  await expect(proposer.getByLabel("Why the change")).toHaveValue(reason);
  await lookback.fill("366");
  await proposer.getByRole("button", { name: "Propose this version" }).click();
  const waiting = proposer.getByRole("heading", { name: /^Waiting for approval: version \d+$/ });
  await expect(waiting).toBeVisible();
  const version = (await waiting.textContent())!.replace(/\D/g, "");
  await expect(proposer.getByText("You proposed this version: another person at head office must approve or reject it.")).toBeVisible();
  await expect(proposer.getByRole("button", { name: `Approve version ${version}` })).toHaveCount(0);
  await proposer.getByRole("button", { name: "Run backtest" }).click();
  await expect(proposer.getByTestId("backtest")).toContainText(`Version ${version} (proposed)`);

  const second = await (await browser.newContext({ storageState: await (await apiAs("supervisor.hq.second")).storageState() })).newPage();
  await second.goto(proposer.url());
  await second.getByRole("button", { name: `Approve version ${version}` }).click();
  await expect(second.getByRole("heading", { name: `In force: version ${version}` })).toBeVisible();
  await expect(second.getByRole("heading", { name: /^Waiting for approval/ })).toHaveCount(0);
  await proposer.context().close();
  await second.context().close();
});

test("a supervisor past the reveal limit gets a staff case only head office sees, cleared there by two people", async ({ page, browser, apiAs }) => {
  test.setTimeout(90_000);
  const { id } = await issueFingerprintToken(page, newCustomer());
  // Rule 8 v1: more than 20 reveals in 24 hours. Each reveal is the review page's own action.
  const subject = demoAccount("supervisor.kumasi");
  const subjectsRequests = await apiAs("supervisor.kumasi");
  for (let reveal = 1; reveal <= 21; reveal += 1) {
    const call = await callServerAction(subjectsRequests, { file: "app/(staff)/review/tokens/[id]/actions.ts", name: "revealIdNumberAction" }, { tokenRequestId: id, reason: `Checking the card against the file, ${reveal}` });
    expect(call.result?.ok, call.text.slice(0, 300)).toBe(true);
  }
  const caseLink = (viewer: typeof page) => viewer.getByRole("link", { name: `Staff member ${subject.username}` });
  const headOffice = await (await browser.newContext({ storageState: await (await apiAs("supervisor.hq")).storageState() })).newPage();
  // One open case per person: if another spec's SMS attach (rule 10) opened this supervisor's case
  // first, the reveals join it as a second alert, so wait for rule 8's alert on the case itself.
  await expect(async () => {
    await headOffice.goto("/review/cases");
    await caseLink(headOffice).click({ timeout: 1_000 });
    await headOffice.waitForURL(/\/review\/cases\/[0-9a-f-]{36}$/, { timeout: 2_000 });
    await expect(headOffice.getByTestId("case-alert").filter({ hasText: "rule 8 v1" })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: LIVE_TIMEOUT });
  const caseUrl = headOffice.url();

  // The subject, who is also their branch's supervisor: no row, and the case's own address is not found.
  const subjectsPage = await (await browser.newContext({ storageState: await subjectsRequests.storageState() })).newPage();
  await subjectsPage.goto("/review/cases");
  await expect(caseLink(subjectsPage)).toHaveCount(0);
  expect((await subjectsPage.goto(caseUrl))?.status()).toBe(404);
  // Nor does their audit trail, or its CSV, say a word of it (ADR 0050). Their branch's customer
  // cases may be there: those are routed to them; their own staff case never.
  const staffCaseId = caseUrl.split("/").at(-1)!;
  await subjectsPage.goto("/admin/audit?action=risk.alert_raised");
  await expect(subjectsPage.getByRole("heading", { name: "Audit trail" })).toBeVisible();
  expect(await subjectsPage.content()).not.toContain(staffCaseId);
  const subjectsCsv = await subjectsRequests.get("/api/review/audit-export", { headers: { "Sec-Fetch-Site": "same-origin" } });
  expect(subjectsCsv.status()).toBe(200);
  const subjectsCsvText = await subjectsCsv.text();
  expect(subjectsCsvText).not.toContain(staffCaseId);
  expect(subjectsCsvText).not.toContain("staff_id_access");

  // Head office: one person takes it and proposes clearing; the case stays open until a second confirms.
  await headOffice.getByRole("button", { name: "Take this case" }).click();
  await expect(headOffice.getByText("The case is yours; it is in review.")).toBeVisible();
  // The token whose ID was read is held as evidence while the case is open. The same open staff
  // case may also hold a token this supervisor entered from an SMS in another spec (rule 10 joins
  // the case about the same person), so: held, every one of them, and none released.
  const evidence = headOffice.getByRole("region", { name: "Tokens held as evidence" });
  await expect(evidence.getByRole("cell", { name: "Until closed" }).first()).toBeVisible();
  await expect(evidence.getByRole("cell", { name: "Released" })).toHaveCount(0);
  await headOffice.getByLabel("Decision").selectOption("clear");
  await headOffice.getByLabel("Reason").fill("Reveals were for the branch's card audit this week.");
  await headOffice.getByRole("button", { name: "Record decision" }).click();
  await expect(headOffice.getByText("Closing proposed: a second person, neither you nor the assignee, must confirm the same decision.")).toBeVisible();

  const second = await (await browser.newContext({ storageState: await (await apiAs("supervisor.hq.second")).storageState() })).newPage();
  await second.goto(caseUrl);
  await expect(second.getByText("Yaw Mensah proposed clearing it")).toBeVisible();
  await second.getByLabel("Decision").selectOption("clear");
  await second.getByLabel("Reason").fill("Confirmed with the branch: the card audit was scheduled.");
  await second.getByRole("button", { name: "Record decision" }).click();
  await expect(second.getByText("Decision recorded.")).toBeVisible();
  await second.goto("/review/cases");
  await expect(second.getByRole("region", { name: /^Open/ }).getByRole("link", { name: `Staff member ${subject.username}` })).toHaveCount(0);
  await expect(second.getByRole("region", { name: "Decided" }).getByRole("link", { name: `Staff member ${subject.username}` })).toBeVisible();

  // The case's steps are links of the audit trail's chain, and it still verifies.
  const admin = await (await browser.newContext({ storageState: await (await apiAs("admin")).storageState() })).newPage();
  await admin.goto("/admin/audit");
  await admin.getByRole("button", { name: "Verify the trail" }).click();
  await expect(admin.getByText("The audit trail is intact")).toBeVisible();

  for (const opened of [headOffice, subjectsPage, second, admin]) await opened.context().close();
});
