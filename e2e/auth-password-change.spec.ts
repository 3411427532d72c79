import type { Page } from "@playwright/test";
import { passwordMessages } from "@/lib/auth/password-rules";
import {
  approveOnStaffPage,
  createTestAccount,
  expect,
  readBranchIds,
  requestWith,
  SECOND_ADMIN,
  signInByApi,
  signInWithForm,
  test,
  uniqueSuffix,
} from "@/e2e/support/auth";
import { callServerAction } from "@/e2e/support/action-calls";

/**
 * Forced password change at next sign-in (ADR 0012): a temporary password from an administrator
 * opens only the page where the staff member chooses their own, and sign-out.
 */

const appUrl = () => process.env.APP_URL!;

const newPasswordField = (page: Page) => page.getByLabel("New password", { exact: true });
const temporaryField = (page: Page) => page.getByLabel("Temporary password", { exact: true });
const confirmField = (page: Page) => page.getByLabel("New password again", { exact: true });

async function fillChangeForm(page: Page, values: { temporary: string; chosen: string; again: string }) {
  await temporaryField(page).fill(values.temporary);
  await newPasswordField(page).fill(values.chosen);
  await confirmField(page).fill(values.again);
  await page.getByRole("button", { name: "Save new password" }).click();
}

async function expectKept(page: Page, values: { temporary: string; chosen: string; again: string }) {
  await expect(temporaryField(page)).toHaveValue(values.temporary);
  await expect(newPasswordField(page)).toHaveValue(values.chosen);
  await expect(confirmField(page)).toHaveValue(values.again);
}

test.describe("a temporary password", () => {
  test("must be replaced at the next sign-in before anything else opens; the old one then stops working", async ({ browser, apiAs }) => {
    // One shared counter PC: the administrator works, signs out, and the teller signs in.
    const context = await browser.newContext();
    const page = await context.newPage();
    const username = `fresh.${uniqueSuffix()}`;
    const chosen = "kente cloth at noon";

    await signInWithForm(page, "admin", "veridesk-demo");
    await expect(page).toHaveURL("/");
    await page.goto("/admin/staff/new");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Full name").fill("Efua Fresh");
    await page.getByLabel("Role").selectOption({ label: "Teller" });
    await page.getByLabel("Branch").selectOption({ label: "ACC — Accra – Head Office" });
    await page.getByRole("button", { name: "Create account" }).click();
    // A teller sees customer data: a second administrator approves the account (ADR 0020).
    await expect(page.getByText("Sent for approval")).toBeVisible();
    const secondContext = await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() });
    const firstTemporary = (await approveOnStaffPage(await secondContext.newPage(), username))!;
    await secondContext.close();

    // The administrator resets it (say, the first slip was lost): a second temporary password.
    await page.goto("/admin/staff");
    const row = page.locator(`tr[data-username="${username}"]`);
    await expect(row).toContainText("Temporary password");
    await row.getByRole("link", { name: "Efua Fresh" }).click();
    await expect(page).toHaveURL(/\/admin\/staff\/[0-9a-f-]{36}$/);
    const userId = page.url().split("/").pop()!;
    await page.getByRole("button", { name: "Reset password" }).click();
    await expect(page.getByRole("dialog")).toContainText("must choose a new password");
    await page.getByRole("dialog").getByRole("button", { name: "Reset password" }).click();
    const temporary = (await page.getByTestId("temporary-password").textContent())!;
    expect(temporary).not.toBe(firstTemporary);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL("/sign-in?reason=signed-out");

    // The teller signs in with the temporary password and is held on the change page.
    await signInWithForm(page, username, temporary, { isOnSignInPage: true });
    await expect(page).toHaveURL("/change-password");
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await page.screenshot({ path: "/tmp/auth-change-password.png" });

    for (const path of ["/", "/tokens", "/tokens/new/fingerprint", "/admin/staff"]) {
      await page.goto(path);
      await expect(page, `${path} while the temporary password is held`).toHaveURL("/change-password");
    }

    // Route handlers and actions refuse the session too, with a code saying why.
    const held = await requestWith(await context.storageState());
    const tokens = await held.get("/api/tokens?scope=today");
    expect(tokens.status()).toBe(403);
    expect(await tokens.json()).toEqual({ error: expect.objectContaining({ code: "PASSWORD_CHANGE_REQUIRED", message: expect.stringMatching(/choose a new password/i) }) });
    const { result: issued } = await callServerAction(held, { file: "app/(staff)/tokens/new/fingerprint/actions.ts", name: "issueFingerprintTokenAction" }, {});
    expect(issued).toMatchObject({ ok: false, code: "PASSWORD_CHANGE_REQUIRED" });
    await held.dispose();

    // A second session of the same account (another PC), to be ended by the change.
    const otherSession = await signInByApi(username, temporary);

    // Too short, and a confirmation that differs: both said at once, nothing typed is lost.
    const weak = { temporary, chosen: "short", again: "shorter" };
    await fillChangeForm(page, weak);
    await expect(page.getByText(passwordMessages.tooShort)).toBeVisible();
    await expect(page.getByText(passwordMessages.confirmDiffers)).toBeVisible();
    await expect(newPasswordField(page)).toHaveAttribute("aria-invalid", "true");
    await expectKept(page, weak);
    await page.screenshot({ path: "/tmp/auth-change-password-errors.png" });

    // Keeping the temporary password is not choosing one.
    const same = { temporary, chosen: temporary, again: temporary };
    await fillChangeForm(page, same);
    await expect(page.getByText(passwordMessages.sameAsCurrent)).toBeVisible();
    await expectKept(page, same);

    // A mistyped temporary password is caught by the server, on its field.
    const mistyped = { temporary: firstTemporary, chosen, again: chosen };
    await fillChangeForm(page, mistyped);
    await expect(page.getByText(passwordMessages.currentWrong)).toBeVisible();
    await expectKept(page, mistyped);
    await expect(page).toHaveURL("/change-password");

    // The right one: home, signed in, with everything the role allows.
    await fillChangeForm(page, { temporary, chosen, again: chosen });
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { name: "Welcome, Efua" })).toBeVisible();
    await page.goto("/tokens");
    await expect(page).toHaveURL("/tokens");
    await page.goto("/change-password");
    await expect(page).toHaveURL("/");

    // The other session ended; the temporary passwords no longer work; the chosen one does.
    const other = await requestWith(otherSession);
    expect((await other.get("/api/auth/session")).status()).toBe(401);
    await other.dispose();
    const anonymous = await apiAs(null);
    const signIn = (password: string) =>
      anonymous.post("/api/auth/sign-in/username", { data: { username, password }, headers: { origin: appUrl() } });
    expect((await signIn(temporary)).status()).toBe(401);
    expect((await signIn(firstTemporary)).status()).toBe(401);
    expect((await signIn(chosen)).status()).toBe(200);

    // The administrator sees the change in the audit trail, and the badge gone.
    const admin = await browser.newContext({ storageState: await (await apiAs("admin")).storageState() });
    const adminPage = await admin.newPage();
    await adminPage.goto(`/admin/audit?staff=${userId}`);
    const changed = adminPage.locator("tbody tr").filter({ hasText: "Password changed" });
    await expect(changed).toHaveCount(1);
    await expect(changed).toContainText(username);
    await adminPage.goto(`/admin/staff/${userId}`);
    await expect(adminPage.getByText("Active: can sign in.")).toBeVisible();
    await expect(adminPage.getByText("Temporary password", { exact: true })).toHaveCount(0);
    await admin.close();
    await context.close();
  });

  test("lets the staff member sign out instead", async ({ page, apiAs, browser }) => {
    const adminContext = await browser.newContext({ storageState: await (await apiAs("admin")).storageState() });
    const branchIds = await readBranchIds(await adminContext.newPage());
    await adminContext.close();
    const account = await createTestAccount(
      await apiAs("admin"),
      { username: `later.${uniqueSuffix()}`, name: "Yaw Later", role: "supervisor", branchCode: "KUM" },
      branchIds,
      { keepsTemporaryPassword: true },
    );
    await signInWithForm(page, account.username, account.password);
    await expect(page).toHaveURL("/change-password");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL("/sign-in?reason=signed-out");
    await page.goto("/change-password");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fchange-password/);
  });

  test("is copied on a branch PC that reaches the desk over plain http, where the Clipboard API is missing", async ({ browser, apiAs }) => {
    const context = await browser.newContext({ storageState: await (await apiAs("admin")).storageState() });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: appUrl() });
    const branchIds = await readBranchIds(await context.newPage());
    const account = await createTestAccount(
      await apiAs("admin"),
      { username: `copy.${uniqueSuffix()}`, name: "Esi Copy", role: "teller", branchCode: "ACC" },
      branchIds,
    );
    const page = await context.newPage();
    // What a browser gives a page served over plain http on the bank's LAN: no secure context, no navigator.clipboard.
    await page.addInitScript(() => {
      Object.defineProperty(window, "isSecureContext", { value: false });
      Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined });
    });
    await page.goto(`/admin/staff/${account.userId}`);
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Reset password" }).click();
    const temporary = (await page.getByTestId("temporary-password").textContent())!.trim();
    await page.getByRole("button", { name: "Copy" }).click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();

    // Read back from a page of the same browser that has the Clipboard API.
    const reader = await context.newPage();
    await reader.goto("/");
    expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe(temporary);
    await context.close();
  });
});
