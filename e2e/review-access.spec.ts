import { expect, test } from "@playwright/test";
import { requestWith, signInByApi } from "@/e2e/support/auth";
import { optionsOf, readListTotal, requireDemoData, rowAttributes } from "@/e2e/support/review";
import { demoAccount } from "@/lib/staff/demo-accounts";

/**
 * Who may use review: tellers never; a branch supervisor only for their own branch — not its
 * list, not its figures, not another branch's token by id, whatever the URL asks for.
 */

test("a teller cannot open any review page, route or export", async ({ browser }) => {
  const state = await signInByApi("teller.accra", demoAccount("teller.accra").password);
  const context = await browser.newContext({ storageState: state });
  const page = await context.newPage();
  for (const path of ["/review", "/review/figures", "/review/reconciliation", "/review/tokens/00000000-0000-4000-8000-000000000000"]) {
    const response = await page.goto(path);
    // Either a 403 page or the "not for your role" redirect home: never the review page.
    expect(page.url().includes(path) ? response?.status() : 403, path).toBe(403);
    await expect(page.getByRole("heading", { name: /Token review|Figures|End of day|Token history/ })).toHaveCount(0);
  }
  const api = await requestWith(state);
  for (const path of ["/api/review/export", "/api/review/audit-export"]) {
    expect((await api.get(path)).status(), path).toBe(403);
  }
  await context.close();
});

test("a branch supervisor sees only their branch's tokens and figures", async ({ browser }) => {
  const hqState = await signInByApi("supervisor.hq", demoAccount("supervisor.hq").password);
  const hq = await (await browser.newContext({ storageState: hqState })).newPage();
  await requireDemoData(hq);
  const branches = await optionsOf(hq, "Branch");
  const kumasi = branches["Kumasi – Adum"]!;
  const accra = branches["Accra – Head Office"]!;
  await hq.goto(`/review?branch=${accra}`);
  const [accraTokenId] = await rowAttributes(hq, "data-token-id");
  await hq.goto(`/review?branch=${kumasi}`);
  const { total: kumasiTotal } = await readListTotal(hq);

  const state = await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password);
  const page = await (await browser.newContext({ storageState: state })).newPage();

  // Unfiltered, and even asking for Accra in the URL: Kumasi's tokens only, all of them.
  for (const path of ["/review", `/review?branch=${accra}`]) {
    await page.goto(path);
    expect((await readListTotal(page)).total, path).toBe(kumasiTotal);
    for (const branchId of await rowAttributes(page, "data-branch-id")) expect(branchId).toBe(kumasi);
  }
  await expect(page.getByLabel("Branch", { exact: true })).toHaveCount(0);

  // Another branch's token by id: not found, as if it did not exist.
  const response = await page.goto(`/review/tokens/${accraTokenId}`);
  expect(response?.status()).toBe(404);

  // Figures: one group, Kumasi, whatever branch the URL names.
  await page.goto(`/review/figures?groupBy=branch&branch=${accra}&from=2000-01-01`);
  const groups = page.getByTestId("figures-row");
  await expect(groups).toHaveCount(1);
  await expect(groups.first()).toHaveAttribute("data-key", kumasi);

  // The export holds Kumasi's rows only.
  const csv = await (await requestWith(state)).get(`/api/review/export?branch=${accra}`);
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines.length - 1).toBe(kumasiTotal);
  expect(lines.slice(1).every((line) => line.includes("Kumasi – Adum"))).toBe(true);
});
