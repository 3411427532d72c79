import type { Locator, Page, TestInfo } from "@playwright/test";
import { formatDay } from "@/lib/bank-time";
import { addDays } from "@/lib/review/filters";
import { optionsOf, requireDemoData } from "@/e2e/support/review";
import { bankDayOf } from "@/lib/bank-time";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { signInByApi } from "@/e2e/support/auth";
import { callServerAction } from "@/e2e/support/action-calls";
import { findLayoutDefects } from "./support/layout-checks";
import { expect, test } from "./support/session";

/**
 * On 30 days of demo data: the review screens on a desk
 * monitor, a tablet and a phone (1280, 768, 390 px). Every review, end-of-day, figures, audit and
 * staff table either fits or scrolls sideways inside its frame with its first column kept and a
 * visible "scroll sideways" hint; nothing is cut off at 1280 (e2e/support/layout-checks.ts, the
 * screens suite's checks, run here where the tables are full); the audit trail reads in plain
 * words; every date is written one way (24 Nov 2026) and typed one way (DD/MM/YYYY). A screenshot
 * of each screen at each width is kept with the run's results.
 */

const WIDTHS = [1280, 768, 390] as const;

async function look(page: Page, testInfo: TestInfo, url: string, width: number, problems: string[], name?: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator("main")).toBeVisible();
  const tooWideBy = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (tooWideBy > 0) problems.push(`${url} at ${width} px is ${tooWideBy} px too wide`);
  for (const defect of await findLayoutDefects(page)) problems.push(`${url} at ${width} px: ${defect}`);
  await page.screenshot({ path: testInfo.outputPath(`${name ?? url.replace(/[/?=&]+/g, "_")}-${width}.png`), fullPage: true });
}

/** Scrolls a table's frame to its far end: its first column must stay where it was, its last come into view. */
async function scrollFrameToEnd(frame: Locator, firstCell: Locator, lastHeader: Locator): Promise<void> {
  const scroller = frame.locator("[data-table-scroller]");
  const before = await firstCell.boundingBox();
  await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(frame.locator("[data-scroll-hint]")).toHaveText("Scroll sideways for the first columns");
  expect((await firstCell.boundingBox())!.x, "the first column stays in place").toBeCloseTo(before!.x, 0);
  await expect(lastHeader).toBeInViewport({ ratio: 0.99 });
}

test.describe("a head-office supervisor's tables", () => {
  test.use({ account: "supervisor.hq" });

  test("fit at 1280 px, and at 768 and 390 px scroll inside their frame with the first column kept and a hint", async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    await requireDemoData(page);
    const tokenHref = await page.getByTestId("review-row").filter({ has: page.locator("[data-token-code]") }).first().locator("a").first().getAttribute("href");
    const urls = ["/review", "/review?state=failed", "/review/figures", "/review/figures?groupBy=teller", "/review/figures?groupBy=day", "/review/reconciliation", "/admin/audit", tokenHref!];
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const url of urls) await look(page, testInfo, url, width, problems);

      await page.goto("/review");
      const list = page.locator("[data-overflow]", { has: page.getByTestId("review-row") });
      if (width === 1280) {
        // The whole list on a desk monitor: no hint, because nothing is to the side.
        await expect(list.locator("[data-scroll-hint]")).toHaveCount(0);
        await expect(page.getByRole("columnheader", { name: /Time to result/ })).toBeInViewport({ ratio: 0.99 });
      } else {
        await expect(list.locator("[data-scroll-hint]")).toHaveText("Scroll sideways for more columns");
        await scrollFrameToEnd(list, page.getByTestId("review-row").first().locator("td").first(), page.getByRole("columnheader", { name: /Time to result/ }));
        await page.screenshot({ path: testInfo.outputPath(`review-scrolled-${width}.png`) });
      }

      await page.goto("/review/reconciliation");
      const tellers = page.locator("section", { has: page.getByRole("heading", { name: "Tokens per teller" }) }).locator("[data-overflow]");
      if (width === 390) {
        await expect(tellers.locator("[data-scroll-hint]")).toBeVisible();
        await scrollFrameToEnd(tellers, page.getByTestId("reconciliation-teller").first().locator("th"), tellers.getByRole("columnheader", { name: "Not issued" }));
        await page.screenshot({ path: testInfo.outputPath(`end-of-day-scrolled-${width}.png`), fullPage: true });
      }

      // The audit trail: a table from 768 px, a card per event on a phone.
      await page.goto("/admin/audit");
      if (width === 390) {
        await expect(page.getByTestId("audit-card").first()).toBeVisible();
        await expect(page.getByRole("table")).toBeHidden();
      } else {
        await expect(page.getByRole("table")).toBeVisible();
        await expect(page.getByTestId("audit-card").first()).toBeHidden();
      }
    }
    expect(problems, "pages wider than the window, clipped columns, text over text, token codes over lines, dates in a second format").toEqual([]);
  });

  test("dates are typed DD/MM/YYYY and written 24 Nov 2026 in the list, the figures and the end-of-day sheet", async ({ page }, testInfo) => {
    await requireDemoData(page);
    const today = bankDayOf(new Date());
    const [from, to] = [addDays(today, -6), addDays(today, -2)];
    const typed = (day: string) => day.split("-").reverse().join("");

    const filters = page.locator("summary", { hasText: "Filters" });
    await filters.click();
    const fromField = page.getByLabel("From", { exact: true });
    await fromField.pressSequentially(typed(from));
    await expect(fromField).toHaveValue(from.split("-").reverse().join("/"));
    await page.getByLabel("To", { exact: true }).pressSequentially(typed(to));
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`from=${from}&to=${to}`));
    await expect(page.getByTestId("active-filters")).toContainText(`${formatDay(from)} to ${formatDay(to)}`);
    for (const created of await page.getByTestId("review-row").locator("td:nth-child(2)").allTextContents()) {
      expect(created).toMatch(/^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}$/);
    }
    // Typed back in: the form shows what the URL holds, as DD/MM/YYYY.
    await filters.click();
    await expect(page.getByLabel("To", { exact: true })).toHaveValue(to.split("-").reverse().join("/"));

    // A half-typed day is not a filter: the page says it ignored it.
    await page.goto("/review");
    await filters.click();
    await page.getByLabel("From", { exact: true }).pressSequentially("3011");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText("These filters were ignored: from.")).toBeVisible();

    await page.goto(`/review/figures?from=${from}&to=${to}&groupBy=day`);
    await expect(page.locator("main")).toContainText(`${formatDay(from)} to ${formatDay(to)}`);
    await expect(page.getByTestId("figures-row").first().locator("th")).toHaveText(formatDay(from, { weekday: true }));

    await page.goto("/review/reconciliation");
    const day = page.getByRole("textbox", { name: "Day" });
    await expect(day).toHaveValue(today.split("-").reverse().join("/"));
    await day.fill("");
    await day.pressSequentially(typed(to));
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`day=${to}`));
    await expect(page.locator("main")).toContainText(formatDay(to, { weekday: true }));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: testInfo.outputPath(`end-of-day-typed-day-${width}.png`) });
    }
  });
});

test.describe("the audit trail in plain words", () => {
  test.use({ account: "admin" });

  test("field labels, names, decoded filters and ID documents by name, never keys, ids or filter strings", async ({ page, browser }, testInfo) => {
    const suffix = Date.now().toString(36);
    const request = page.context().request;
    const purposes = "app/(staff)/admin/purposes/actions.ts";
    const created = await callServerAction(request, { file: purposes, name: "createPurposeAction" }, { name: `Plain words ${suffix}`, allowsFingerprint: true, allowsRemote: false, remoteIdTypes: [], isActive: true });
    expect(created.result?.ok, created.text).toBe(true);
    const purposeId = (created.result!.data as { purposeId: string }).purposeId;
    const updated = await callServerAction(request, { file: purposes, name: "updatePurposeAction" }, { purposeId, name: `Plain words ${suffix}`, allowsFingerprint: true, allowsRemote: true, remoteIdTypes: ["GHANA_CARD"], isActive: false });
    expect(updated.result?.ok, updated.text).toBe(true);

    // A supervisor's filtered export, recorded with its filters.
    const supervisorContext = await browser.newContext({ storageState: await signInByApi("supervisor.hq", demoAccount("supervisor.hq").password) });
    const supervisorPage = await supervisorContext.newPage();
    await requireDemoData(supervisorPage);
    const kumasi = (await optionsOf(supervisorPage, "Branch"))["Kumasi – Adum"]!;
    const exported = await supervisorContext.request.get(`/api/review/export?state=failed&branch=${kumasi}`);
    expect(exported.status()).toBe(200);
    await supervisorContext.close();

    const developerWords = /isActive|remoteIdTypes|allowsRemote|allowsFingerprint|GHANA_CARD|mustChangePassword|\[\]|state=|branch=|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/;
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const event = (action: string) => (width < 768 ? page.locator(`li[data-action="${action}"]`) : page.locator(`tr[data-action="${action}"]`)).first();

      await page.goto("/admin/audit?action=purpose.update");
      const change = event("purpose.update");
      await expect(change.locator('[data-change="remoteIdTypes"]')).toContainText("Remote ID documents");
      await expect(change.locator('[data-change="remoteIdTypes"]')).toContainText(/none\s*Ghana Card/);
      await expect(change.locator('[data-change="remoteIdTypes"]').getByLabel("changed to")).toBeVisible();
      await expect(change.locator('[data-change="isActive"]')).toContainText(/In use\s*yes\s*no/);
      expect(await change.innerText()).not.toMatch(developerWords);
      await change.screenshot({ path: testInfo.outputPath(`audit-purpose-change-${width}.png`) });

      await page.goto("/admin/audit?action=review.exported");
      const exportEvent = event("review.exported");
      await expect(exportEvent).toContainText("Yaw Mensah exported the token list, ID numbers masked");
      await expect(exportEvent).toContainText("State: Failed · Branch: Kumasi – Adum");
      expect(await exportEvent.innerText()).not.toMatch(developerWords);

      await page.goto("/admin/audit?action=staff.create");
      const account = event("staff.create");
      await expect(account).toContainText("Must choose a new password at first sign-in");
      expect(await account.innerText()).not.toMatch(developerWords);
      expect(await findLayoutDefects(page), `the audit trail at ${width} px`).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`audit-staff-${width}.png`), fullPage: true });
    }
  });
});
