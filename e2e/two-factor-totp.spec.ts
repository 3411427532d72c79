import type { Page } from "@playwright/test";
import { base32Decode, totpCode, totpStepAt } from "@/lib/auth/two-factor/totp";
import {
  completeCodeStepInPage,
  createTestAccount,
  expect,
  readBranchIds,
  rememberAuthenticator,
  requestWith,
  signInWithForm,
  test,
  SECOND_ADMIN,
  uniqueSuffix,
} from "@/e2e/support/auth";
import { callServerAction } from "@/e2e/support/action-calls";

/**
 * An authenticator app (TOTP) with backup codes for password sign-ins: a fresh administrator
 * must set one up before anything else opens (MFA_REQUIRED_FOR is `admins` in test runs), then
 * signs in with its code; a code is good once, and so is a backup code.
 */

const codeField = (page: Page) => page.getByLabel("Authenticator code");
const verify = (page: Page) => page.getByRole("button", { name: "Verify and sign in" });

test.describe.configure({ mode: "serial" });

let account: { userId: string; username: string; password: string; secret: Uint8Array; backupCodes: string[] };

test("a fresh administrator is held at the set-up of an authenticator app, then signed in with it", async ({ browser, apiAs, sessionOf }) => {
  const adminPage = await (await browser.newContext({ storageState: await sessionOf("admin") })).newPage();
  const created = await createTestAccount(await apiAs("admin"), { username: `tf.admin.${uniqueSuffix()}`, name: "Abena Totp", role: "admin", branchCode: "ACC" }, await readBranchIds(adminPage));

  const context = await browser.newContext();
  const fresh = await context.newPage();
  await signInWithForm(fresh, created.username, created.password);
  await expect(fresh).toHaveURL("/second-factor");
  // Every other page, route and action refuses the session until the app is set up.
  await fresh.goto("/admin/staff");
  await expect(fresh).toHaveURL("/second-factor");
  const session = await requestWith(await context.storageState());
  const route = await session.get("/api/auth/session");
  expect(route.status()).toBe(403);
  expect(await route.json()).toEqual({ error: expect.objectContaining({ code: "SECOND_FACTOR_REQUIRED" }) });
  const { result } = await callServerAction(session, { file: "app/(staff)/admin/staff/actions.ts", name: "createStaffAction" }, { username: "x.never", name: "Never", role: "teller", branchId: "x" });
  expect(result).toMatchObject({ ok: false, code: "SECOND_FACTOR_REQUIRED" });
  await session.dispose();

  // The set-up: the password again, the QR code and the key, a code from the app.
  await fresh.getByLabel("Your password").fill("not-my-password");
  await fresh.getByRole("button", { name: "Start the set-up" }).click();
  await expect(fresh.getByText("That is not your current password.")).toBeVisible();
  await expect(fresh.getByLabel("Your password")).toBeFocused();
  await fresh.getByLabel("Your password").fill(created.password);
  await fresh.getByRole("button", { name: "Start the set-up" }).click();
  await expect(fresh.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const key = (await fresh.getByTestId("authenticator-secret").textContent())!;
  expect(key).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const secret = base32Decode(key);
  await fresh.getByLabel("Code from the app").fill("000000" === totpCode(secret, totpStepAt(Date.now())) ? "111111" : "000000");
  await fresh.getByRole("button", { name: "Confirm the app" }).click();
  await expect(fresh.getByText(/That code is not right/)).toBeVisible();
  await expect(fresh.getByLabel("Code from the app")).toBeFocused();
  await fresh.getByLabel("Code from the app").fill(totpCode(secret, totpStepAt(Date.now())));
  await fresh.getByRole("button", { name: "Confirm the app" }).click();

  // The backup codes, shown once; the session is now one signed in with the app.
  await expect(fresh.getByText("Authenticator app set up")).toBeVisible();
  const shownCodes = fresh.getByTestId("backup-codes").locator("li");
  await expect(shownCodes).toHaveCount(10);
  // Read until all ten are read at once: the page's fresh render for the new session cookie may
  // replace the list (the same codes) between two reads.
  let backupCodes: string[] = [];
  await expect.poll(async () => (backupCodes = (await shownCodes.allTextContents()).map((code) => code.trim())).length).toBe(10);
  await fresh.getByRole("button", { name: /I have saved my backup codes/ }).click();
  await expect(fresh).toHaveURL("/");
  await fresh.goto("/account/security");
  await expect(fresh.getByText("This session was signed in with password and authenticator code.")).toBeVisible();
  await expect(fresh.getByTestId("backup-codes-left")).toContainText("10 backup codes left.");
  await context.close();

  account = { userId: created.userId, username: created.username, password: created.password, secret, backupCodes };
  rememberAuthenticator(created.username, key);
});

test("signs in with the password and a code; the same code is refused the second time", async ({ browser }) => {
  const first = await (await browser.newContext()).newPage();
  await signInWithForm(first, account.username, account.password, { stopsAtCodeStep: true });
  await expect(codeField(first)).toBeFocused();
  await expect(first.getByText(`Password accepted for ${account.username}`)).toBeVisible();
  // The code of the step after the one used at the set-up: the window accepts it already.
  const code = totpCode(account.secret, totpStepAt(Date.now()) + 1);
  await codeField(first).fill(code);
  // A double click sends one request.
  const sent: string[] = [];
  first.on("request", (request) => {
    if (request.url().includes("/two-factor/verify-totp")) sent.push(request.url());
  });
  await verify(first).dblclick();
  await expect(first).toHaveURL("/");
  expect(sent).toHaveLength(1);

  const second = await (await browser.newContext()).newPage();
  await signInWithForm(second, account.username, account.password, { stopsAtCodeStep: true });
  await codeField(second).fill(code);
  await verify(second).click();
  await expect(second.getByText("That code was used already. Wait for the next code in your authenticator app, then type it.")).toBeVisible();
  await expect(codeField(second)).toHaveValue("");
  await expect(codeField(second)).toBeFocused();
  await expect(second).toHaveURL(/\/sign-in/);
  // The next code is good.
  await completeCodeStepInPage(second, account.secret);
  await expect(second).toHaveURL("/");
});

test("a backup code signs in once", async ({ browser }) => {
  const backupCode = account.backupCodes[0]!;
  // On a phone, where the header keeps only the menu: the menu leads to one's sign-in security.
  const first = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await signInWithForm(first, account.username, account.password, { stopsAtCodeStep: true });
  await first.getByRole("button", { name: "Use a backup code instead" }).click();
  await first.getByLabel("Backup code").fill(backupCode);
  await verify(first).click();
  await expect(first).toHaveURL("/");
  await first.getByTestId("menu-button").click();
  await first.getByRole("link", { name: "Sign-in security" }).click();
  await expect(first).toHaveURL("/account/security");
  await expect(first.getByText("This session was signed in with password and a backup code.")).toBeVisible();
  await expect(first.getByTestId("backup-codes-left")).toContainText("9 backup codes left.");

  const second = await (await browser.newContext()).newPage();
  await signInWithForm(second, account.username, account.password, { stopsAtCodeStep: true });
  await second.getByRole("button", { name: "Use a backup code instead" }).click();
  await second.getByLabel("Backup code").fill(backupCode);
  await verify(second).click();
  await expect(second.getByText(/That backup code is not right, or was used already/)).toBeVisible();
  await expect(second.getByLabel("Backup code")).toBeFocused();
  await expect(second).toHaveURL(/\/sign-in/);
});

test("the demo administrators of a test run sign in with the published authenticator", async ({ page }) => {
  await signInWithForm(page, "admin", "veridesk-demo");
  await expect(page).toHaveURL("/");
  await page.goto("/account/security");
  await expect(page.getByText("This session was signed in with password and authenticator code.")).toBeVisible();
});

test("a lost authenticator: one administrator proposes removing it, a second applies it, and the next sign-in sets up a new one", async ({ browser, sessionOf }) => {
  const proposer = await (await browser.newContext({ storageState: await sessionOf("admin") })).newPage();
  await proposer.goto(`/admin/staff/${account.userId}`);
  await expect(proposer.getByTestId("second-factors")).toContainText("Authenticator app set up, 9 backup codes left.");
  await proposer.getByLabel("Why, and how you checked it is them").fill("Lost it");
  await proposer.getByRole("button", { name: "Propose removing their second factors" }).click();
  await expect(proposer.getByText(/Say how you checked it is them/)).toBeVisible();
  await proposer.getByLabel("Why, and how you checked it is them").fill("Phone lost on the bus; identity checked in person with her staff card.");
  await proposer.getByRole("button", { name: "Propose removing their second factors" }).click();
  const pending = proposer.getByTestId("pending-second-factor-reset");
  await expect(pending).toContainText("proposed by admin");
  // Its author may only withdraw it.
  await expect(pending.getByRole("button", { name: "Approve and remove" })).toHaveCount(0);
  await expect(pending.getByRole("button", { name: "Cancel the proposal" })).toBeVisible();
  // Still in place until a second administrator decides.
  await expect(proposer.getByTestId("second-factors")).toContainText("Authenticator app set up");

  const approver = await (await browser.newContext({ storageState: await sessionOf(SECOND_ADMIN) })).newPage();
  await approver.goto(`/admin/staff/${account.userId}`);
  await expect(approver.getByTestId("pending-second-factor-reset")).toContainText("Phone lost on the bus");
  await approver.getByRole("button", { name: "Approve and remove" }).click();
  await expect(approver.getByText(/^Removed: /)).toBeVisible();
  await expect(approver.getByTestId("second-factors")).toContainText("No authenticator app.");

  // The password alone now leads to setting up a new app, as at the very first sign-in.
  const owner = await (await browser.newContext()).newPage();
  await signInWithForm(owner, account.username, account.password, { stopsAtCodeStep: true });
  await expect(owner).toHaveURL("/second-factor");
  await expect(owner.getByRole("button", { name: "Start the set-up" })).toBeVisible();

  await proposer.goto("/admin/audit?action=staff.second_factor_reset");
  await expect(proposer.locator("tbody tr").filter({ hasText: account.username }).first()).toContainText(SECOND_ADMIN);
});
