import { expect, test, type Page } from "@playwright/test";
import { requestWith, signInByApi } from "@/e2e/support/auth";
import { demoKnownCustomer } from "@/scripts/demo-data/plan";
import { formatDay } from "@/lib/bank-time";
import { reviewStateLabels } from "@/lib/review/filters";
import { formatRate } from "@/lib/review/format";
import { requireDemoData } from "@/e2e/support/review";
import { parseCsv } from "@/test/kit/csv";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { FUTURE_SHEET_MESSAGE } from "@/lib/review/sign-off";
import { callAction, captureNextAction, readActionResult } from "./support/server-actions";

/**
 * The supervisor's figures and end-of-day sheet on the demo seed, each checked against a count
 * of its own made here from the CSV export of the same range (a different query: the keyset
 * export of the token list, not the figures' aggregate); and the audited reveal of an ID number,
 * from the search to the audit trail.
 */

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

type ExportRow = { token: string; state: string; branch: string; teller: string };

async function exportedRows(username: "supervisor.hq" | "supervisor.kumasi", query: string): Promise<ExportRow[]> {
  const api = await requestWith(await signInByApi(username, demoAccount(username).password));
  const response = await api.get(`/api/review/export?${query}`);
  expect(response.status()).toBe(200);
  const [header, ...rows] = parseCsv(await response.text());
  const column = (name: string) => header!.indexOf(name);
  const [token, state, branch, teller] = [column("Token"), column("State"), column("Branch"), column("Teller")];
  return rows.map((cells) => ({ token: cells[token]!, state: cells[state]!, branch: cells[branch]!, teller: cells[teller]! }));
}

/** The figures' definitions (lib/review/figures.ts), counted over exported rows. */
function countRows(rows: ExportRow[]) {
  const inState = (...states: (keyof typeof reviewStateLabels)[]) => rows.filter((row) => states.some((state) => row.state === reviewStateLabels[state])).length;
  const issued = rows.filter((row) => row.token !== "");
  const finalIssued = issued.filter((row) => ["successful", "failed", "expired", "invalid", "outcome_unknown"].some((state) => row.state === reviewStateLabels[state as keyof typeof reviewStateLabels]));
  const successful = inState("successful");
  return {
    requests: rows.length,
    issued: issued.length,
    successful,
    failed: inState("failed"),
    expired: inState("expired"),
    invalid: inState("invalid"),
    outcomeUnknown: inState("outcome_unknown"),
    open: inState("waiting", "in_progress"),
    notIssued: inState("not_issued"),
    finished: inState("successful", "failed", "expired", "invalid"),
    successRate: formatRate(finalIssued.length > 0 ? successful / finalIssued.length : null),
  };
}

/** A row's cells by their data-column, numbers without their thousands separators. */
async function cellsOf(row: ReturnType<Page["getByTestId"]>): Promise<Record<string, string>> {
  return row.locator("[data-column]").evaluateAll((cells) =>
    Object.fromEntries(cells.map((cell) => [cell.getAttribute("data-column"), (cell.textContent ?? "").trim()])),
  );
}

const asNumber = (text: string | undefined) => Number((text ?? "").replace(/,/g, ""));

test("figures per branch over 30 days match a count of the exported tokens", async ({ browser }) => {
  const page = await (await browser.newContext({ storageState: await signInByApi("supervisor.hq", demoAccount("supervisor.hq").password) })).newPage();
  await requireDemoData(page);
  const [from, to] = [day(-29), day(0)];
  await page.goto(`/review/figures?groupBy=branch&from=${from}&to=${to}`);
  await expect(page.getByRole("heading", { name: "Figures" })).toBeVisible();
  const exported = await exportedRows("supervisor.hq", `from=${from}&to=${to}`);
  expect(exported.length).toBeGreaterThan(500);

  const groups = page.getByTestId("figures-row");
  const branchNames = await groups.locator("th").allTextContents();
  expect(branchNames.length).toBeGreaterThan(1);
  for (const [index, name] of branchNames.entries()) {
    const shown = await cellsOf(groups.nth(index));
    const expected = countRows(exported.filter((row) => row.branch === name));
    for (const key of ["issued", "successful", "failed", "expired", "invalid", "outcomeUnknown", "open", "notIssued"] as const) {
      expect(asNumber(shown[key]), `${name}: ${key}`).toBe(expected[key]);
    }
    expect(shown.successRate, `${name}: success rate`).toBe(expected.successRate);
  }
  const total = await cellsOf(page.getByTestId("figures-total"));
  expect(asNumber(total.issued)).toBe(countRows(exported).issued);
  expect(total.successRate).toBe(countRows(exported).successRate);

  // Per teller and per day regroup the same tokens: the totals do not move.
  for (const groupBy of ["teller", "day"]) {
    await page.goto(`/review/figures?groupBy=${groupBy}&from=${from}&to=${to}`);
    expect(await cellsOf(page.getByTestId("figures-total")), groupBy).toEqual(total);
  }
});

test("the end-of-day sheet counts the branch's day per teller, lists what needs following up, and prints", async ({ browser }) => {
  const state = await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password);
  const page = await (await browser.newContext({ storageState: state })).newPage();
  // The most recent day of the last week with tokens at Kumasi.
  let sheetDay = "";
  let exported: ExportRow[] = [];
  for (let back = 1; back <= 7 && exported.length === 0; back++) {
    sheetDay = day(-back);
    exported = await exportedRows("supervisor.kumasi", `from=${sheetDay}&to=${sheetDay}`);
  }
  expect(exported.length, "a day with tokens in the last week").toBeGreaterThan(0);

  await page.goto(`/review/reconciliation?day=${sheetDay}`);
  const sheet = page.getByTestId("reconciliation-sheet");
  await expect(sheet).toBeVisible();
  const expected = countRows(exported);
  const total = await cellsOf(page.getByTestId("reconciliation-total"));
  for (const key of ["requests", "successful", "failed", "expired", "invalid", "open", "outcomeUnknown", "notIssued"] as const) {
    expect(asNumber(total[key]), key).toBe(expected[key]);
  }
  const tellerNames = await page.getByTestId("reconciliation-teller").locator("th").allTextContents();
  expect(tellerNames.sort()).toEqual([...new Set(exported.map((row) => row.teller))].sort());
  // Follow up: no known outcome, still open, or invalid.
  await expect(page.getByTestId("follow-up-row")).toHaveCount(expected.outcomeUnknown + expected.open + expected.invalid);

  // Printing records itself in the audit trail, then opens the print dialog (stubbed here).
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute("data-printed", "yes");
  });
  const printed = await captureNextAction(page, () => page.getByRole("button", { name: "Print sign-off sheet" }).click());
  await expect(page.locator("body")).toHaveAttribute("data-printed", "yes");
  // The same record for a day that cannot exist, or is still to come: refused, nothing recorded.
  const [printedInput] = printed.args as [Record<string, unknown>];
  const notADay = readActionResult((await callAction(page.request, printed, [{ ...printedInput, day: "9999-99-99" }])).text);
  expect(notADay).toMatchObject({ ok: false, code: "VALIDATION" });
  const toCome = readActionResult((await callAction(page.request, printed, [{ ...printedInput, day: "2099-12-31" }])).text);
  expect(toCome).toMatchObject({ ok: false, code: "VALIDATION", formError: FUTURE_SHEET_MESSAGE });
  // On paper: the sheet's own title, without the app's header and navigation.
  const paperTitle = page.getByText("End-of-day identity verification reconciliation");
  const appHeader = page.locator("header.no-print");
  await expect(paperTitle).toBeHidden();
  await expect(appHeader).toBeVisible();
  await page.emulateMedia({ media: "print" });
  await expect(paperTitle).toBeVisible();
  await expect(appHeader).toBeHidden();
  await page.emulateMedia({ media: "screen" });
  await page.goto("/admin/audit?action=review.reconciliation_printed");
  await expect(page.locator('tr[data-action="review.reconciliation_printed"]').first()).toContainText(formatDay(sheetDay));
  await expect(page.locator('tr[data-action="review.reconciliation_printed"]', { hasText: /9999|2099/ })).toHaveCount(0);
});

test("a supervisor reveals a customer's full ID number only with a reason, and the reveal is audited", async ({ browser }) => {
  const page = await (await browser.newContext({ storageState: await signInByApi("supervisor.hq", demoAccount("supervisor.hq").password) })).newPage();
  await requireDemoData(page);
  const search = page.getByRole("region", { name: "Find a customer by ID number" });
  await search.getByLabel("ID type").selectOption(demoKnownCustomer.idType);
  await search.getByLabel("ID number", { exact: true }).fill(demoKnownCustomer.idNumber);
  await search.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByTestId("id-search-row").first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/review\/tokens\/[0-9a-f-]{36}$/);

  const idNumber = page.getByTestId("id-number");
  await expect(idNumber).toContainText("•");
  await page.getByRole("button", { name: "Reveal full number" }).click();
  const reason = page.getByLabel("Why do you need the full number?");
  await reason.fill("fraud");
  await page.getByRole("button", { name: "Reveal and record" }).click();
  await expect(page.getByText("at least 10 characters")).toBeVisible();
  await expect(reason).toHaveValue("fraud");
  await expect(idNumber).toContainText("•");

  const why = "Customer disputes the verification at the counter";
  await reason.fill(why);
  await page.getByRole("button", { name: "Reveal and record" }).click();
  await expect(idNumber).toHaveText(demoKnownCustomer.idNumber);
  await page.getByRole("button", { name: "Hide" }).click();
  await expect(idNumber).toContainText("•");

  // On the token's own access log, after a reload, and in the audit trail, with the reason.
  await page.reload();
  await expect(page.getByTestId("review-access-log")).toContainText(why);
  await page.goto("/admin/audit?action=token.id_revealed");
  const audited = page.locator('tr[data-action="token.id_revealed"]').first();
  await expect(audited).toContainText("supervisor.hq");
  await expect(audited).toContainText(why);
  await expect(page.locator("body")).not.toContainText(demoKnownCustomer.idNumber);
});

test("the audit trail filters by staff member and event through its form, and exports what it shows", async ({ browser }) => {
  const state = await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password);
  const page = await (await browser.newContext({ storageState: state })).newPage();
  // An event of the supervisor's own to find: exports are audited.
  await exportedRows("supervisor.kumasi", "state=failed");
  await page.goto("/admin/audit");
  const filters = page.getByRole("form", { name: "Filter the audit trail" });
  await filters.getByLabel("Staff member").selectOption({ label: `${demoAccount("supervisor.kumasi").name} (supervisor.kumasi)` });
  await filters.getByLabel("Event").selectOption("review.exported");
  await filters.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/[?&]staff=.+&action=review\.exported/);
  const rows = page.locator("tr[data-action]");
  await expect(rows.first()).toBeVisible();
  expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-action")))).toEqual(
    Array.from({ length: await rows.count() }, () => "review.exported"),
  );
  // "Who" names the staff member, with the username under the name.
  for (const who of await rows.locator("td:nth-child(2)").allTextContents()) expect(who).toBe(`${demoAccount("supervisor.kumasi").name}supervisor.kumasi`);

  // Read-only: no control on the page changes an event.
  await expect(page.getByRole("button", { name: /delete|edit|remove/i })).toHaveCount(0);

  // The export link carries the same filters.
  const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  const response = await (await requestWith(state)).get(href!);
  expect(response.status()).toBe(200);
  const [header, ...exported] = parseCsv(await response.text());
  expect(exported.length).toBe(await rows.count());
  expect(exported.every((cells) => cells[header!.indexOf("Who")] === "supervisor.kumasi" && cells[header!.indexOf("Event code")] === "review.exported")).toBe(true);
});
