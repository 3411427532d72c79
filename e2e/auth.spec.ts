import { navItemsFor } from "@/components/shell/nav-items";
import { roleLabels } from "@/lib/domain/staff-roles";
import { LOCKED_MESSAGE } from "@/lib/auth/lockout";
import { demoAccounts, demoBranches } from "@/lib/staff/demo-accounts";
import type { Page } from "@playwright/test";
import {
  createTestAccount,
  expect,
  readBranchIds,
  requestWith,
  signInByApi,
  signInWithForm,
  test,
  uniqueSuffix,
  approveOnStaffPage,
  SECOND_ADMIN,
} from "@/e2e/support/auth";

/** Sign-in, sign-out, lock-out, disabled accounts, idle warning and the admin's audit trail. */

const WRONG_CREDENTIALS = "The username or password is not right. Check both and try again.";

/** The sign-in form's message (Next's route announcer is an empty role="alert" too). */
const formAlert = (page: Page) => page.locator("form").getByRole("alert");

test.describe("signing in", () => {
  for (const account of demoAccounts) {
    test(`${account.username} (${roleLabels[account.role]}) signs in and lands on their home`, async ({ browser }) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInWithForm(page, account.username, account.password);
      await expect(page).toHaveURL("/");
      await expect(page.getByRole("heading", { name: `Welcome, ${account.name.split(" ")[0]}` })).toBeVisible();
      const branchName = demoBranches.find((branch) => branch.code === account.branchCode)!.name;
      await expect(page.getByTestId("signed-in-staff")).toContainText(account.name);
      await expect(page.getByTestId("signed-in-staff")).toContainText(`${roleLabels[account.role]} · ${branchName}`);
      // The navigation shows exactly what the role may use.
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav.getByRole("link")).toHaveText(navItemsFor(account.role).map((item) => item.label));
      if (account.role === "teller") {
        await expect(page.getByRole("link", { name: /New fingerprint token/ })).toHaveAttribute("href", "/tokens/new/fingerprint");
        await expect(page.getByRole("link", { name: /New remote token/ })).toHaveAttribute("href", "/tokens/new/remote");
      }
      if (account.role === "admin") await expect(page.getByRole("link", { name: /Staff accounts/ })).toHaveAttribute("href", "/admin/staff");
      await page.screenshot({ path: `/tmp/auth-home-${account.username}.png` });
      await context.close();
    });
  }

  test("a signed-out visit comes back to the page asked for after signing in", async ({ page }) => {
    await page.goto("/admin/audit?action=auth.sign_in");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await signInWithForm(page, "supervisor.hq", "veridesk-demo", { isOnSignInPage: true });
    await expect(page).toHaveURL("/admin/audit?action=auth.sign_in");
    await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
  });

  test("a next= pointing at another site, however disguised, lands on the home page", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInWithForm(page, "teller.accra", "veridesk-demo");
    await expect(page).toHaveURL("/");
    // A signed-in visit to the sign-in page follows next= at once: the browser would leave here.
    for (const next of ["/%09/evil.example/x", "/%0a/evil.example/x", "/%0d/evil.example/x", "/.//evil.example/x", "https://evil.example/"]) {
      await page.goto(`/sign-in?next=${encodeURIComponent(decodeURIComponent(next))}`);
      await expect(page).toHaveURL("/");
    }
    await context.close();
  });

  test("wrong credentials read the same whether the account exists or not, and keep the username", async ({ page }) => {
    await page.goto("/sign-in");
    await page.screenshot({ path: "/tmp/auth-sign-in.png" });
    for (const username of ["teller.accra", `nobody.${uniqueSuffix()}`]) {
      await page.getByLabel("Username").fill(username);
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(formAlert(page)).toContainText(WRONG_CREDENTIALS);
      await expect(page.getByLabel("Username")).toHaveValue(username);
      await expect(page.getByLabel("Password")).toHaveValue("");
      await expect(page.getByLabel("Password")).toBeFocused();
    }
    await page.screenshot({ path: "/tmp/auth-sign-in-error.png" });
    // Empty fields are caught before anything is sent.
    await page.getByLabel("Username").fill("");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Enter your username.")).toBeVisible();
    await expect(page.getByText("Enter your password.")).toBeVisible();
  });

  test("the session cookie is httpOnly and SameSite=Lax", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInWithForm(page, "teller.kumasi", "veridesk-demo");
    await expect(page).toHaveURL("/");
    const cookie = (await context.cookies()).find((candidate) => candidate.name.endsWith("veridesk.session_token"));
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    // Secure is set when APP_ENV=production (this run is APP_ENV=test over plain http).
    await context.close();
  });
});

test.describe("signing out", () => {
  test("ends the session on the server, not just in the browser", async ({ browser }) => {
    const state = await signInByApi("teller.accra", "veridesk-demo");
    const context = await browser.newContext({ storageState: state });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL("/sign-in?reason=signed-out");
    await expect(page.getByText("You have signed out")).toBeVisible();
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in/);

    // The cookie kept from before signing out is worthless now.
    const replay = await requestWith(state);
    expect((await replay.get("/api/auth/session")).status()).toBe(401);
    await replay.dispose();
    await context.close();
  });
});

test.describe("lock-out", () => {
  test("five wrong passwords lock the account with a message a teller understands", async ({ page, apiAs, browser }) => {
    const adminPage = await (await browser.newContext({ storageState: await (await apiAs("admin")).storageState() })).newPage();
    const branchIds = await readBranchIds(adminPage);
    const account = await createTestAccount(await apiAs("admin"), { username: `lock.${uniqueSuffix()}`, name: "Abena Lock", role: "teller", branchCode: "KUM" }, branchIds);

    await page.goto("/sign-in");
    await page.getByLabel("Username").fill(account.username);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await page.getByLabel("Password").fill(`wrong-${attempt}-password`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(formAlert(page)).toContainText(WRONG_CREDENTIALS);
    }
    await page.getByLabel("Password").fill("wrong-5-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(formAlert(page)).toContainText(LOCKED_MESSAGE);
    await page.screenshot({ path: "/tmp/auth-locked.png" });

    // Even the right password is refused while locked.
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(formAlert(page)).toContainText(LOCKED_MESSAGE);
    await expect(page).toHaveURL(/\/sign-in/);

    // The audit trail holds the failures and the lock.
    await adminPage.goto(`/admin/audit?action=auth.locked_out`);
    await expect(adminPage.locator("tbody tr").filter({ hasText: account.username })).toHaveCount(1);
    await adminPage.context().close();
  });

  test("an unknown username locks the same way, so the lock tells nothing about which accounts exist", async ({ apiAs }) => {
    const anonymous = await apiAs(null);
    const username = `ghost.${uniqueSuffix()}`;
    const answers: { status: number; code?: string }[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      const response = await anonymous.post("/api/auth/sign-in/username", {
        data: { username, password: "whatever-password" },
        headers: { origin: process.env.APP_URL! },
      });
      answers.push({ status: response.status(), code: ((await response.json()) as { code?: string }).code });
    }
    expect(answers.slice(0, 4)).toEqual(Array(4).fill({ status: 401, code: "INVALID_USERNAME_OR_PASSWORD" }));
    // The fifth attempt failed (401) and locked; from then on sign-in is refused without a check (429).
    expect(answers[4]).toEqual({ status: 401, code: "ACCOUNT_LOCKED" });
    expect(answers[5]).toEqual({ status: 429, code: "ACCOUNT_LOCKED" });
  });
});

test.describe("disabled accounts", () => {
  test("are signed out at their next request and cannot sign in again", async ({ browser, apiAs }) => {
    const adminContext = await browser.newContext({ storageState: await (await apiAs("admin")).storageState() });
    const adminPage = await adminContext.newPage();
    const branchIds = await readBranchIds(adminPage);
    const account = await createTestAccount(await apiAs("admin"), { username: `leaver.${uniqueSuffix()}`, name: "Kojo Leaver", role: "teller", branchCode: "ACC" }, branchIds);

    const tellerContext = await browser.newContext();
    const tellerPage = await tellerContext.newPage();
    await signInWithForm(tellerPage, account.username, account.password);
    await expect(tellerPage).toHaveURL("/");

    await adminPage.goto(`/admin/staff/${account.userId}`);
    await adminPage.getByRole("button", { name: "Disable account" }).click();
    await expect(adminPage.getByRole("dialog")).toContainText("signed out everywhere at once");
    await adminPage.screenshot({ path: "/tmp/auth-disable-dialog.png" });
    await adminPage.getByRole("dialog").getByRole("button", { name: "Disable account" }).click();
    await expect(adminPage.getByText("Disabled", { exact: true }).first()).toBeVisible();

    // The teller's very next request finds the session gone.
    await tellerPage.reload();
    await expect(tellerPage).toHaveURL(/\/sign-in\?/);
    await signInWithForm(tellerPage, account.username, account.password);
    await expect(formAlert(tellerPage)).toContainText("This account is disabled. Ask your administrator.");
    await expect(tellerPage).toHaveURL(/\/sign-in/);

    // Enabled again, it signs in.
    await adminPage.getByRole("button", { name: "Enable account" }).click();
    await adminPage.getByRole("dialog").getByRole("button", { name: "Enable account" }).click();
    await expect(adminPage.getByText("Active", { exact: true }).first()).toBeVisible();
    await signInWithForm(tellerPage, account.username, account.password);
    await expect(tellerPage).toHaveURL("/");
    await tellerContext.close();
    await adminContext.close();
  });
});

test.describe("administration", () => {
  test("creating and changing an account appears in the audit trail with before and after", async ({ browser, apiAs }) => {
    const context = await browser.newContext({ storageState: await (await apiAs("admin")).storageState() });
    const page = await context.newPage();
    const username = `audit.${uniqueSuffix()}`;

    await page.goto("/admin/staff");
    await page.getByRole("link", { name: "Add staff member" }).click();
    await page.getByRole("button", { name: "Create account" }).click();
    // All field errors at once.
    await expect(page.getByText("At least 3 characters.").or(page.getByText("Invalid input")).first()).toBeVisible();
    await expect(page.getByText("Choose a role.")).toBeVisible();
    await expect(page.getByText("Choose a branch.")).toBeVisible();

    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Full name").fill("Adwoa Audit");
    await page.getByLabel("Role").selectOption({ label: "Teller" });
    await page.getByLabel("Branch").selectOption({ label: "ACC — Accra – Head Office" });
    await page.getByRole("button", { name: "Create account" }).click();
    // A teller sees customer data: the account waits for a second administrator (ADR 0020).
    await expect(page.getByText("Sent for approval")).toBeVisible();
    const secondContext = await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() });
    const secondPage = await secondContext.newPage();
    const firstPassword = await approveOnStaffPage(secondPage, username);
    expect(firstPassword).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    await secondPage.screenshot({ path: "/tmp/auth-admin-created.png" });

    // The same username again is refused on its field.
    await page.goto("/admin/staff/new");
    await page.getByLabel("Username").fill(username.toUpperCase());
    await page.getByLabel("Full name").fill("Someone Else");
    await page.getByLabel("Role").selectOption({ label: "Teller" });
    await page.getByLabel("Branch").selectOption({ label: "KUM — Kumasi – Adum" });
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("This username is taken. Choose another.")).toBeVisible();

    await page.goto("/admin/staff");
    await page.getByRole("link", { name: "Adwoa Audit" }).click();
    await page.getByLabel("Role").selectOption({ label: "Branch supervisor" });
    await page.getByLabel("Branch").selectOption({ label: "KUM — Kumasi – Adum" });
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Sent for approval")).toBeVisible();
    await page.screenshot({ path: "/tmp/auth-admin-edit.png" });
    expect(await approveOnStaffPage(secondPage, username)).toBeNull();
    await secondContext.close();
    await page.reload();
    await expect(page.getByLabel("Role")).toHaveValue("supervisor");

    // Password reset: a new password, shown once; the first one stops working.
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Reset password" }).click();
    const secondPassword = await page.getByTestId("temporary-password").textContent();
    expect(secondPassword).not.toBe(firstPassword);
    const anonymous = await apiAs(null);
    const signIn = (password: string) =>
      anonymous.post("/api/auth/sign-in/username", { data: { username, password }, headers: { origin: process.env.APP_URL! } });
    expect((await signIn(firstPassword!)).status()).toBe(401);
    expect((await signIn(secondPassword!)).status()).toBe(200);

    await page.getByRole("link", { name: "This account in the audit trail" }).click();
    const rows = page.locator("tbody tr");
    const change = rows.filter({ hasText: "Staff account changed" });
    await expect(change).toHaveCount(1);
    await expect(change).toContainText("admin");
    await expect(change.locator('[data-change="role"]')).toContainText("Teller");
    await expect(change.locator('[data-change="role"]')).toContainText("Branch supervisor");
    await expect(change.locator('[data-change="branch"]')).toContainText("ACC");
    await expect(change.locator('[data-change="branch"]')).toContainText("KUM");
    await expect(change.locator('[data-change="name"]')).toContainText("unchanged");
    await expect(rows.filter({ hasText: "Staff account created" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Password reset" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Signed in" })).toHaveCount(1);
    await page.screenshot({ path: "/tmp/auth-audit-trail.png", fullPage: true });
    await context.close();
  });

  test("branches are added and renamed, and the audit trail says so", async ({ browser, apiAs }) => {
    const context = await browser.newContext({ storageState: await (await apiAs("admin")).storageState() });
    const page = await context.newPage();
    const code = `T${uniqueSuffix().slice(-4).toUpperCase().replace(/[^A-Z0-9]/g, "X")}`.slice(0, 6);
    await page.goto("/admin/branches");
    await page.getByRole("button", { name: "Add branch" }).click();
    await page.getByLabel("Code").fill(code);
    await page.getByLabel("Name", { exact: true }).fill("Tema – Community 1");
    await page.getByRole("dialog").getByRole("button", { name: "Add branch" }).click();
    const row = page.locator(`tr[data-branch-code="${code}"]`);
    await expect(row).toContainText("Tema – Community 1");
    await row.getByRole("button", { name: `Rename ${code}` }).click();
    await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Tema – Harbour");
    await page.getByRole("dialog").getByRole("button", { name: "Save name" }).click();
    await expect(row).toContainText("Tema – Harbour");

    await page.goto("/admin/audit?action=branch.rename");
    const rename = page.locator("tbody tr").filter({ hasText: "Tema – Harbour" });
    await expect(rename).toContainText("Tema – Community 1");
    await context.close();
  });
});

test.describe("the idle warning", () => {
  test("warns before the session ends, and 'Stay signed in' keeps it", async ({ browser }) => {
    // A session of its own: this test ends it.
    const context = await browser.newContext({ storageState: await signInByApi("teller.accra", "veridesk-demo") });
    const page = await context.newPage();
    await page.clock.install();
    // The server is asked how much time is left before warning: answer "a minute and a half", so
    // the counter reads 1:xx for half a minute (from "one minute" it read 1:00 for one second, and
    // a busy machine drew the dialog at 0:59).
    let remainingAnswer: number | "signed-out" = 90_000;
    await page.route("**/api/auth/session", async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      if (remainingAnswer === "signed-out") return route.fulfill({ status: 401, json: { error: { code: "UNAUTHENTICATED" } } });
      return route.fulfill({ json: { idleRemainingMs: remainingAnswer, absoluteRemainingMs: 10 * 3_600_000 } });
    });
    await page.goto("/");
    await expect(page.locator("body[data-session-guard=watching]")).toHaveCount(1);
    await page.clock.fastForward("28:30");
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Are you still there?");
    await expect(dialog).toContainText(/Signing out in 1:\d\d/);
    await page.screenshot({ path: "/tmp/auth-idle-warning.png" });

    // "Stay signed in" asks the real server (POST), which restarts the idle time.
    await dialog.getByRole("button", { name: "Stay signed in" }).click();
    await expect(dialog).toBeHidden();

    // Left alone again until the end: the tab goes to the sign-in page and says why.
    remainingAnswer = "signed-out";
    await page.clock.fastForward("31:00");
    await expect(page).toHaveURL(/\/sign-in\?reason=idle/);
    await expect(page.getByText("You were signed out after a period without activity")).toBeVisible();
    await context.close();
  });
});

test("better-auth's other endpoints are not reachable", async ({ apiAs }) => {
  const signedIn = await apiAs("teller.kumasi");
  const origin = { origin: process.env.APP_URL! };
  for (const [method, path] of [
    ["GET", "/api/auth/get-session"],
    ["GET", "/api/auth/list-sessions"],
    ["POST", "/api/auth/sign-up/email"],
    ["POST", "/api/auth/sign-in/email"],
    ["POST", "/api/auth/update-user"],
    ["POST", "/api/auth/change-password"],
    ["POST", "/api/auth/sign-out"],
  ] as const) {
    const response = await signedIn.fetch(path, { method, headers: origin, data: method === "POST" ? { name: "x", email: "x@x.io", password: "password-123" } : undefined });
    expect(response.status(), `${method} ${path}`).toBe(404);
  }
});
