import { expect, test, type Locator, type Page } from "@playwright/test";
import { requestWith, signInByApi } from "@/e2e/support/auth";
import { formatDay } from "@/lib/bank-time";
import { reconciliationStateColumns } from "@/lib/review/reconciliation-columns";
import { requireDemoData } from "@/e2e/support/review";
import { parseCsv } from "@/test/kit/csv";
import { demoAccount, type DemoUsername } from "@/lib/staff/demo-accounts";
import { signOffRefusals } from "@/lib/review/sign-off";
import { callAction, captureNextAction, readActionResult } from "./support/server-actions";

/**
 * Review tells the whole story, on the demo seed: failure reasons in the CSV, the list
 * and the detail; history and audit in sentences with staff names and token links; the
 * end-of-day sheet adds up and is signed off on screen, in the audit trail and on paper; figures
 * per teller for a branch supervisor, by success rate, the chart out of the tab order.
 */

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function pageAs(browser: import("@playwright/test").Browser, username: DemoUsername): Promise<Page> {
  const context = await browser.newContext({ storageState: await signInByApi(username, demoAccount(username).password) });
  return context.newPage();
}

async function exportCsv(username: DemoUsername, query: string): Promise<{ header: string[]; rows: string[][] }> {
  const api = await requestWith(await signInByApi(username, demoAccount(username).password));
  const response = await api.get(`/api/review/export?${query}`);
  expect(response.status()).toBe(200);
  const [header, ...rows] = parseCsv(await response.text());
  return { header: header!, rows };
}

const asNumber = (text: string | null | undefined) => Number((text ?? "").replace(/,/g, ""));

async function cellsOf(row: Locator): Promise<Record<string, number>> {
  const cells = await row.locator("[data-column]").evaluateAll((elements) => elements.map((cell) => [cell.getAttribute("data-column")!, (cell.textContent ?? "").trim()]));
  return Object.fromEntries(cells.map(([key, text]) => [key, asNumber(text)]));
}

test("the CSV, the list and the detail carry a failed verification's reason, in the service's words", async ({ browser }) => {
  const page = await pageAs(browser, "supervisor.hq");
  await requireDemoData(page);
  const range = `from=${day(-29)}&to=${day(0)}`;
  const { header, rows } = await exportCsv("supervisor.hq", `state=failed&${range}`);
  const [tokenAt, reasonAt] = [header.indexOf("Token"), header.indexOf("Failure reason")];
  expect(reasonAt, "a Failure reason column").toBeGreaterThan(-1);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(row[reasonAt], `reason of ${row[tokenAt]}`).not.toBe("");
    expect(row[reasonAt]).not.toMatch(/UPSTREAM_|state_changed/);
  }
  // Outcome unknown: the reason says what to do next.
  const unknown = await exportCsv("supervisor.hq", `state=outcome_unknown&${range}`);
  // A token on record was used and its result never came; an attempt without one: a demo remote token sent
  // its link by SMS (the customer's SMS holds the token), a fingerprint attempt sent none.
  for (const row of unknown.rows) {
    const reason = row[unknown.header.indexOf("Failure reason")];
    if (row[unknown.header.indexOf("Token")]) expect(reason).toMatch(/never sent a result/);
    else expect(reason).toMatch(row[unknown.header.indexOf("Kind")] === "Fingerprint" ? /no token to read out.*issue a new token/ : /token in their SMS/);
  }

  // The list shows the same reason in its own column, and the detail tells it again.
  const [firstToken, firstReason] = [rows[0]![tokenAt]!, rows[0]![reasonAt]!];
  await page.goto(`/review?state=failed&token=${firstToken}&${range}`);
  await expect(page.getByTestId("failure-reason").first()).toHaveText(firstReason);
  await page.getByRole("link", { name: new RegExp(firstToken) }).first().click();
  await expect(page).toHaveURL(/\/review\/tokens\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("failure-reason-panel")).toHaveText(firstReason);

  // History in sentences: who issued which token, what the service reported. No raw codes.
  const history = page.getByTestId("review-history");
  const teller = await page.locator("dt", { hasText: "Teller" }).locator("xpath=following-sibling::dd[1]").textContent();
  await expect(history).toContainText(`${teller} issued token ${firstToken}`);
  await expect(history).toContainText(`The service reported Failed: ${firstReason}`);
  await expect(history).not.toContainText(/state_changed|issue\.|UPSTREAM_/);
  await page.screenshot({ path: "/tmp/review-detail-failed.png", fullPage: true });
});

test("the audit trail says who did what to which token, by name, with a link to the token", async ({ browser }) => {
  const page = await pageAs(browser, "supervisor.hq");
  await requireDemoData(page);
  const { header, rows } = await exportCsv("supervisor.hq", `state=successful&from=${day(-29)}&to=${day(0)}`);
  const token = rows[0]![header.indexOf("Token")]!;
  await page.goto(`/review?token=${token}&from=${day(-29)}&to=${day(0)}`);
  await page.getByRole("link", { name: new RegExp(token) }).first().click();
  await expect(page).toHaveURL(/\/review\/tokens\/[0-9a-f-]{36}$/);
  const tokenUrl = new URL(page.url()).pathname;

  await page.getByRole("button", { name: "Reveal full number" }).click();
  await page.getByLabel("Why do you need the full number?").fill("Customer asked for a copy of the record at the counter");
  await page.getByRole("button", { name: "Reveal and record" }).click();
  await expect(page.getByTestId("id-number")).not.toContainText("•");
  // The token's own access log names the token and the person.
  await page.reload();
  await expect(page.getByTestId("review-access-log")).toContainText(`Yaw Mensah revealed the ID number of token ${token}`);

  await page.goto("/admin/audit?action=token.id_revealed");
  const revealed = page.locator('tr[data-action="token.id_revealed"]').first();
  await expect(revealed.getByTestId("audit-sentence")).toContainText(`Yaw Mensah revealed the ID number of token ${token}`);
  await expect(revealed.getByTestId("audit-token-link")).toHaveAttribute("href", tokenUrl);
  await page.goto("/admin/audit?action=token.viewed_by_supervisor");
  await expect(page.locator('tr[data-action="token.viewed_by_supervisor"]').first().getByTestId("audit-sentence")).toContainText(`Yaw Mensah opened token ${token} in review`);
  await expect(page.locator("tbody")).not.toContainText(/token\.issue|UPSTREAM_/);
  await page.screenshot({ path: "/tmp/review-audit-sentences.png", fullPage: true });
});

test("the end-of-day sheet adds up across and down, and is signed off on screen, in the audit trail and on paper", async ({ browser }) => {
  const page = await pageAs(browser, "supervisor.kumasi");
  await requireDemoData(page);
  // The most recent earlier day with tokens at Kumasi.
  let sheetDay = "";
  for (let back = 1; back <= 7 && !sheetDay; back++) {
    const { rows } = await exportCsv("supervisor.kumasi", `from=${day(-back)}&to=${day(-back)}`);
    if (rows.length > 0) sheetDay = day(-back);
  }
  expect(sheetDay, "a day with tokens in the last week").not.toBe("");
  await page.goto(`/review/reconciliation?day=${sheetDay}`);

  const states = reconciliationStateColumns.map(([key]) => key);
  const tellers = page.getByTestId("reconciliation-teller");
  expect(await tellers.count()).toBeGreaterThan(0);
  const sums: Record<string, number> = {};
  for (const row of await tellers.all()) {
    const cells = await cellsOf(row);
    // Across: every request ends in exactly one state.
    expect(states.reduce((sum, key) => sum + cells[key]!, 0)).toBe(cells.requests);
    for (const [key, value] of Object.entries(cells)) sums[key] = (sums[key] ?? 0) + value;
  }
  // Down: the branch total is the sum of the tellers.
  expect(await cellsOf(page.getByTestId("reconciliation-total"))).toEqual(sums);

  // Signing off: a note is needed while tokens are left to follow up.
  const followUp = await page.getByTestId("follow-up-row").count();
  const signOff = page.getByRole("button", { name: /Sign off/ });
  if (followUp > 0) {
    await signOff.click();
    await expect(page.locator("#sign-off-note-error")).toContainText("follow up");
    await expect(page.getByTestId("sign-off-record")).toHaveCount(0);
  }
  const note = `Checked with the tellers ${Date.now()}`;
  await page.getByLabel(/What was done|Note/).fill(note);
  const signedOff = await captureNextAction(page, () => signOff.click());
  const record = page.getByTestId("sign-off-record");
  await expect(record).toContainText("Signed off on screen by Efua Boateng");
  await expect(record).toContainText(note);

  // A day that has not ended cannot be signed off: today's sheet offers no form, and the same
  // action sent for today or 2099-12-31 is refused, saying why.
  const [signedInput] = signedOff.args as [Record<string, unknown>];
  for (const notEnded of [day(0), "2099-12-31"]) {
    const forged = readActionResult((await callAction(page.request, signedOff, [{ ...signedInput, day: notEnded }])).text);
    expect(forged).toMatchObject({ ok: false, code: "VALIDATION", formError: signOffRefusals.notEnded });
  }
  await page.goto(`/review/reconciliation?day=${day(0)}`);
  await expect(page.getByTestId("sign-off-refusal")).toHaveText(signOffRefusals.notEnded);
  await expect(page.getByTestId("sign-off-form")).toHaveCount(0);
  await page.goto(`/review/reconciliation?day=${sheetDay}`);

  // On paper: the signer's name and the time on the signature lines.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("sign-off-form")).toBeHidden();
  const signature = page.locator("dl", { hasText: "Branch supervisor (name)" });
  await expect(signature).toBeVisible();
  await expect(signature).toContainText("Efua Boateng");
  await expect(signature).toContainText("(Accra time)");
  await page.screenshot({ path: "/tmp/review-reconciliation-print.png", fullPage: true });
  await page.emulateMedia({ media: "screen" });

  await page.goto("/admin/audit?action=review.reconciliation_signed_off");
  const audited = page.locator('tr[data-action="review.reconciliation_signed_off"]').first();
  await expect(audited.getByTestId("audit-sentence")).toContainText(`Efua Boateng signed off the end-of-day sheet of Kumasi – Adum for ${formatDay(sheetDay)}`);
  await expect(audited).toContainText(note);
});

test("a branch supervisor's figures are per teller, can be ordered by success rate, and the chart takes no focus", async ({ browser }) => {
  const page = await pageAs(browser, "supervisor.kumasi");
  await requireDemoData(page);
  await page.goto(`/review/figures?from=${day(-29)}&to=${day(0)}`);
  await expect(page.getByRole("combobox", { name: "Per", exact: true })).toHaveValue("teller");
  await page.getByRole("combobox", { name: "Order", exact: true }).selectOption("successRate");
  await page.getByRole("button", { name: "Show figures" }).click();
  await expect(page).toHaveURL(/sort=successRate/);
  const rates = await page
    .getByTestId("figures-row")
    .locator('[data-column="successRate"]')
    .allTextContents();
  const numbers = rates.map((text) => (text.includes("%") ? Number.parseFloat(text) : -1));
  expect(numbers.length).toBeGreaterThan(1);
  expect(numbers).toEqual([...numbers].sort((a, b) => b - a));

  // Nothing inside the chart is in the tab order; the table is its readable equivalent.
  const chart = page.locator("figure[role=img]");
  await expect(chart).toHaveAttribute("aria-describedby", "figures-table");
  const focusable = await chart.evaluate((figure) => figure.querySelectorAll('a, button, input, select, [tabindex]:not([tabindex="-1"])').length);
  const isInert = await chart.evaluate((figure) => figure.querySelector("[inert]") !== null);
  expect(focusable === 0 || isInert).toBe(true);
  await page.locator("body").focus();
  for (let step = 0; step < 40; step += 1) {
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("figure[role=img]")))).toBe(false);
  }
});
