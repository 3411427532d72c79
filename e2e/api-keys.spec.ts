import { expect, SECOND_ADMIN, test } from "@/e2e/support/auth";

/**
 * API keys through the administrators' page (ADR 0044): one proposes, the key exists only once a
 * second approves, who sees it once; the key then calls the API on the running app; revoked, it
 * is refused. And the API reference renders from the app's own script under the CSP.
 */

test("an administrator proposes a key, a second approves and sees it once, the key works until revoked", async ({ browser, apiAs, playwright }) => {
  const name = `Onboarding app ${Date.now().toString(36)}`;
  const first = await browser.newContext({ storageState: await (await apiAs("admin")).storageState() });
  const page = await first.newPage();
  await page.goto("/admin/api-keys");
  await page.getByLabel("Integration").fill(name);
  await page.locator("#branch-ACC").check();
  await page.getByRole("button", { name: "Propose the key" }).click();
  await expect(page.getByText(`Proposed: "${name}"`)).toBeVisible();
  const proposal = page.locator(`li[data-api-key="${name}"]`);
  await expect(proposal.getByRole("button", { name: "Cancel proposal" })).toBeVisible();
  await expect(proposal.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  await expect(page.getByTestId("api-key-shown")).toHaveCount(0);

  const second = await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() });
  const approver = await second.newPage();
  await approver.goto("/admin/api-keys");
  await approver.locator(`li[data-api-key="${name}"]`).getByRole("button", { name: "Approve and show the key" }).click();
  const shown = approver.getByTestId("api-key-shown");
  await expect(shown).toHaveText(/^vdk_(live|test)_[0-9A-Za-z]{46}$/);
  const key = (await shown.textContent())!;
  await approver.screenshot({ path: "/tmp/api-keys-approved.png", fullPage: true });

  const api = await playwright.request.newContext({ baseURL: process.env.APP_URL });
  const purposes = await api.get("/api/v1/purposes", { headers: { authorization: `Bearer ${key}` } });
  expect(purposes.status()).toBe(200);
  expect(((await purposes.json()) as { consent: { version: number } }).consent.version).toBeGreaterThanOrEqual(1);

  // Shown once: after a reload only the hint is left.
  await approver.reload();
  await expect(approver.getByTestId("api-key-shown")).toHaveCount(0);
  const row = approver.locator(`tr[data-api-key="${name}"]`);
  await expect(row).toContainText(`${key.slice(0, 13)}…${key.slice(-4)}`);
  await expect(row).toHaveAttribute("data-status", "active");

  await row.getByRole("button", { name: "Revoke…" }).click();
  await row.getByRole("button", { name: "Revoke now" }).click();
  await expect(approver.getByText(`Revoked: "${name}"`)).toBeVisible();
  await expect(approver.locator(`tr[data-api-key="${name}"]`)).toHaveAttribute("data-status", "revoked");
  const refused = await api.get("/api/v1/purposes", { headers: { authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
  expect(refused.headers()["content-type"]).toContain("application/problem+json");
  await api.dispose();
});

test("the API reference renders from the app's own script, with no CSP violation", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations: string[] = [];
  const outside: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load)/i.test(message.text())) violations.push(message.text());
  });
  page.on("request", (request) => {
    if (!request.url().startsWith(process.env.APP_URL!) && !request.url().startsWith("data:") && !request.url().startsWith("blob:")) outside.push(request.url());
  });
  await page.goto("/api/v1/docs");
  await expect(page.getByText("Veridesk API").first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Issue a token").first()).toBeVisible();
  await page.screenshot({ path: "/tmp/api-docs.png" });
  expect(violations.filter((text) => !/fonts?\./i.test(text))).toEqual([]);
  expect(outside.filter((url) => !/font/i.test(url))).toEqual([]);
});

test("rolling a key is two people: the proposer cannot approve it, a second roll is refused, the approver sees the successor once and both keys work for the overlap", async ({ browser, apiAs, playwright }) => {
  const name = `Core banking ${Date.now().toString(36)}`;
  const first = await (await browser.newContext({ storageState: await (await apiAs("admin")).storageState() })).newPage();
  const approver = await (await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() })).newPage();
  await first.goto("/admin/api-keys");
  await first.getByLabel("Integration").fill(name);
  await first.locator("#branch-ACC").check();
  await first.getByRole("button", { name: "Propose the key" }).click();
  await expect(first.getByText(`Proposed: "${name}"`)).toBeVisible();
  await approver.goto("/admin/api-keys");
  await approver.locator(`li[data-api-key="${name}"]`).getByRole("button", { name: "Approve and show the key" }).click();
  const firstKey = (await approver.getByTestId("api-key-shown").textContent())!;

  // One administrator proposes the roll: nothing new is live, and they cannot approve it.
  await first.reload();
  await first.locator(`tr[data-api-key="${name}"]`).getByRole("button", { name: "Propose a roll" }).click();
  await expect(first.getByText(`Roll proposed for "${name}"`)).toBeVisible();
  await first.reload();
  const rollProposal = first.locator(`li[data-api-key="${name}"]`);
  await expect(rollProposal).toContainText(`Roll of ${name}`);
  await expect(rollProposal.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  // A second roll of the same key while one waits: refused, still one proposal.
  await first.locator(`tr[data-api-key="${name}"]`).getByRole("button", { name: "Propose a roll" }).click();
  await expect(first.getByRole("alert").first()).toBeVisible();
  await first.reload();
  await expect(first.locator(`li[data-api-key="${name}"]`)).toHaveCount(1);
  for (const width of [1280, 768, 390]) {
    await first.setViewportSize({ width, height: 900 });
    await first.screenshot({ path: `/tmp/api-keys-roll-proposed-${width}.png`, fullPage: true });
  }

  // The second administrator approves and alone sees the successor, once.
  await approver.reload();
  await approver.locator(`li[data-api-key="${name}"]`).getByRole("button", { name: "Approve and show the key" }).click();
  const successor = (await approver.getByTestId("api-key-shown").textContent())!;
  expect(successor).toMatch(/^vdk_(live|test)_[0-9A-Za-z]{46}$/);
  expect(successor).not.toBe(firstKey);
  for (const width of [1280, 768, 390]) {
    await approver.setViewportSize({ width, height: 900 });
    await approver.screenshot({ path: `/tmp/api-keys-roll-approved-${width}.png`, fullPage: true });
  }
  const api = await playwright.request.newContext({ baseURL: process.env.APP_URL });
  for (const key of [firstKey, successor]) {
    expect((await api.get("/api/v1/purposes", { headers: { authorization: `Bearer ${key}` } })).status(), key.slice(0, 13)).toBe(200);
  }
  await api.dispose();
  for (const opened of [first, approver]) await opened.context().close();
});
