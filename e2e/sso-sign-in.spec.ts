import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import fc from "fast-check";
import { startIdentityProvider, type RunningIdentityProvider } from "@/sandbox/identity-provider/provider";

/**
 * Single sign-on in the browser, against the local OpenID provider (sandbox/identity-provider: a
 * real oidc-provider with its own login and code pages). Single sign-on changes how everybody
 * signs in, so this spec starts an app of its own with the SSO settings, beside the provider, on
 * ports of its own: each person of the provider's directory gets exactly the outcome the policy
 * says, and the audit trail says so. A break-glass administrator (`staff:create --break-glass`)
 * still signs in with a password; every other account is told to use the bank sign-in.
 */

const appPort = Number(process.env.E2E_APP_PORT ?? 3100) + 4;
const idpPort = Number(process.env.E2E_APP_PORT ?? 3100) + 5;
const appUrl = `http://127.0.0.1:${appPort}`;
const idpUrl = `http://127.0.0.1:${idpPort}`;
const workDir = mkdtempSync(path.join(tmpdir(), "veridesk-e2e-sso-"));
const dataDir = path.join(workDir, "pglite");
const BREAK_GLASS = { username: "glass.admin", password: "break-glass-password-1" };

const appEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  APP_ENV: "test",
  PORT: String(appPort),
  APP_URL: appUrl,
  UPSTREAM_BASE_URL: process.env.SANDBOX_URL,
  PGLITE_DATA_DIR: dataDir,
  SERVER_LOG_FILE: path.join(workDir, "app.log"),
  WATCHER_ENABLED: "false",
  RETENTION_JOB_ENABLED: "false",
  E2E_SEED_DEMO: "",
  SSO_ISSUER: idpUrl,
  SSO_CLIENT_ID: "veridesk-e2e",
  SSO_CLIENT_SECRET: "veridesk-e2e-secret",
  SSO_REQUIRED_GROUP: "veridesk-users",
  SSO_ADMIN_GROUP: "veridesk-admins",
});

/** Runs a command to its end (the database is prepared before the app owns it). */
async function run(args: string[], input?: string): Promise<void> {
  const log = openSync(path.join(workDir, "prepare.out"), "a");
  const child = spawn("npx", ["tsx", "--conditions=react-server", ...args], { stdio: ["pipe", log, log], env: appEnv() });
  child.stdin?.end(input ?? "");
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  expect(code, `${args.join(" ")} (see ${workDir}/prepare.out)`).toBe(0);
}

let app: ChildProcess | undefined;
let idp: RunningIdentityProvider | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  idp = await startIdentityProvider({
    port: idpPort,
    clientId: "veridesk-e2e",
    clientSecret: "veridesk-e2e-secret",
    redirectUris: [`${appUrl}/api/auth/sso/callback/bank`],
  });
  // Migrations and the demo staff (whose usernames the provider's directory shares), then the
  // break-glass administrator as an operator makes one, then the app.
  await run(["scripts/db-prepare.ts"]);
  await run(["scripts/staff-create.ts", "--role", "admin", "--username", BREAK_GLASS.username, "--name", "Glass Admin", "--branch", "ACC", "--password-stdin", "--break-glass"], `${BREAK_GLASS.password}\n`);
  const log = openSync(path.join(workDir, "app.out"), "a");
  app = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "--port", String(appPort), "--hostname", "127.0.0.1"], {
    detached: true,
    stdio: ["ignore", log, log],
    env: appEnv(),
  });
  await expect
    .poll(async () => (await fetch(`${appUrl}/api/health/live`).catch(() => null))?.status ?? 0, { timeout: 120_000, intervals: [250] })
    .toBe(200);
});

test.afterAll(async () => {
  if (app && app.exitCode === null && app.signalCode === null) {
    const exited = new Promise((resolve) => app!.once("exit", resolve));
    process.kill(-app.pid!, "SIGTERM");
    await exited;
    await expect.poll(() => existsSync(`${dataDir}.lock`), { timeout: 20_000 }).toBe(false);
  }
  await idp?.close();
});

/** "Sign in with your bank account", then the provider's own pages, as a person would. */
async function signInAtBank(page: Page, person: { username: string; password: string; code?: string }): Promise<void> {
  await page.goto(`${appUrl}/sign-in`);
  await page.getByRole("link", { name: "Sign in with your bank account" }).click();
  await expect(page.getByRole("heading", { name: "Bank sign-in" })).toBeVisible();
  await page.getByLabel("Username").fill(person.username);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (person.code === undefined) return;
  await expect(page.getByRole("heading", { name: "Second step" })).toBeVisible();
  await page.getByLabel("One-time code").fill(person.code);
  await page.getByRole("button", { name: "Verify" }).click();
}

async function expectRefusal(page: Page, reason: string, title: string): Promise<void> {
  await expect(page).toHaveURL(`${appUrl}/sign-in?sso=${reason}`);
  await expect(page.getByTestId("sso-refusal")).toContainText(title);
  await expect(page.getByTestId("sso-refusal")).toHaveAttribute("role", "alert");
}

/** The latest audit row of an action, as the administrator's audit page shows it. */
async function auditRow(page: Page, action: string) {
  await page.goto(`${appUrl}/admin/audit?action=${action}`);
  return page.locator(`[data-action="${action}"]:visible`).first();
}

test("a teller signs in through the bank with its second step and lands as a teller of their branch", async ({ page }) => {
  await signInAtBank(page, { username: "teller.accra", password: "teller-pass", code: "111111" });
  await expect(page).toHaveURL(`${appUrl}/`);
  await expect(page.getByTestId("signed-in-staff")).toContainText("Ama Owusu");
  await expect(page.getByTestId("signed-in-staff")).toContainText("Teller");
  await expect(page.getByTestId("signed-in-staff")).toContainText("Accra – Head Office");
});

test("each person the policy refuses is told why in plain words", async ({ browser }) => {
  const cases = [
    { person: { username: "admin.second", password: "admin-pass", code: "444444" }, reason: "admin_not_in_admin_group", title: "Administrators need the bank's approval too" },
    { person: { username: "supervisor.hq", password: "outsider-pass", code: "555555" }, reason: "not_in_required_group", title: "Veridesk is not among your bank access rights" },
    { person: { username: "teller.kumasi", password: "password-only" }, reason: "no_second_factor", title: "Your bank sign-in needs a second step" },
    { person: { username: "stranger", password: "stranger-pass", code: "777777" }, reason: "unknown_person", title: "Your bank account has no Veridesk account" },
  ];
  for (const { person, reason, title } of cases) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAtBank(page, person);
    await expectRefusal(page, reason, title);
    await context.close();
  }
});

test("an administrator in the admin group lands as administrator and sees each sign-in and refusal in the audit trail", async ({ page }) => {
  await signInAtBank(page, { username: "admin", password: "admin-pass", code: "333333" });
  await expect(page).toHaveURL(`${appUrl}/`);
  const signIn = await auditRow(page, "auth.sign_in");
  await expect(signIn.locator('[data-detail="method"]')).toContainText("the bank's sign-in");
  await expect(signIn.locator('[data-detail="issuer"]')).toContainText(idpUrl);
  await expect(signIn.locator('[data-detail="subject"]')).toContainText("idp-0003");
  await expect(signIn.locator('[data-detail="amr"]')).toContainText("mfa");
  const refusals = page.locator('[data-action="auth.sso_refused"]:visible');
  await page.goto(`${appUrl}/admin/audit?action=auth.sso_refused`);
  for (const words of ["administrators' group", "outside the bank group", "no second factor at the bank", "no Veridesk account"]) {
    await expect(refusals.filter({ hasText: words })).toHaveCount(1);
  }
});

test("a person renamed at the bank keeps their account; another person carrying a linked username is refused", async ({ browser }) => {
  const first = await browser.newContext();
  const firstPage = await first.newPage();
  await signInAtBank(firstPage, { username: "supervisor.kumasi", password: "supervisor-pass", code: "222222" });
  await expect(firstPage).toHaveURL(`${appUrl}/`);
  await first.close();

  await fetch(`${idpUrl}/control/rename`, { method: "POST", body: new URLSearchParams({ subject: "idp-0002", username: "efua.boateng" }) });
  const renamed = await browser.newContext();
  const renamedPage = await renamed.newPage();
  await signInAtBank(renamedPage, { username: "efua.boateng", password: "supervisor-pass", code: "222222" });
  await expect(renamedPage).toHaveURL(`${appUrl}/`);
  await expect(renamedPage.getByTestId("signed-in-staff")).toContainText("Efua Boateng");
  await renamed.close();

  // Someone else at the bank (another subject) now carries the username the renamed person left.
  await fetch(`${idpUrl}/control/rename`, { method: "POST", body: new URLSearchParams({ subject: "idp-0007", username: "supervisor.kumasi" }) });
  const impostor = await browser.newContext();
  const impostorPage = await impostor.newPage();
  await signInAtBank(impostorPage, { username: "supervisor.kumasi", password: "stranger-pass", code: "777777" });
  await expectRefusal(impostorPage, "identity_mismatch", "This username belongs to someone else");
  await impostor.close();
});

test("with the bank sign-in on, a password is refused except for a break-glass administrator, whose sign-in is audited and listed", async ({ page, browser }) => {
  await page.goto(`${appUrl}/sign-in`);
  await page.getByText("Emergency sign-in for administrators").click();
  await page.getByLabel("Username").fill("teller.accra");
  await page.getByLabel("Password").fill("veridesk-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  // The right password of an ordinary account reads exactly as a wrong one: no password oracle.
  await expect(page.getByRole("alert").filter({ hasText: "Not signed in" })).toContainText("or this is not a break-glass account. Everyone else signs in with");
  await expect(page.getByLabel("Username")).toHaveValue("teller.accra");
  const wrong = await page.request.post(`${appUrl}/api/auth/sign-in/username`, { data: { username: "teller.accra", password: "not-the-password" } });
  const right = await page.request.post(`${appUrl}/api/auth/sign-in/username`, { data: { username: "teller.accra", password: "veridesk-demo" } });
  expect([right.status(), await right.json()]).toEqual([wrong.status(), await wrong.json()]);

  await page.getByLabel("Username").fill(BREAK_GLASS.username);
  await page.getByLabel("Password").fill(BREAK_GLASS.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);

  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signInAtBank(adminPage, { username: "admin", password: "admin-pass", code: "333333" });
  await expect(adminPage).toHaveURL(`${appUrl}/`);
  const signIn = adminPage.locator('[data-action="auth.sign_in"]:visible').filter({ hasText: BREAK_GLASS.username }).first();
  await adminPage.goto(`${appUrl}/admin/audit?action=auth.sign_in`);
  await expect(signIn.locator('[data-detail="breakGlass"]')).toBeVisible();
  await adminPage.goto(`${appUrl}/admin/operations`);
  const card = adminPage.getByTestId("staff-sign-in");
  await expect(card.getByTestId("sso-redirect-uri")).toHaveText(`${appUrl}/api/auth/sso/callback/bank`);
  await expect(card.getByTestId("break-glass-sign-in").filter({ hasText: BREAK_GLASS.username })).toHaveCount(1);
  await admin.close();
});

test("signing out after a bank sign-in says the bank's session is still open", async ({ page }) => {
  await signInAtBank(page, { username: "admin", password: "admin-pass", code: "333333" });
  await expect(page).toHaveURL(`${appUrl}/`);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${appUrl}/sign-in?reason=signed-out-bank-open`);
  await expect(page.getByText("Your bank sign-in is still open in this browser")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign out of the bank too" })).toHaveAttribute("href", new RegExp(`^${idpUrl}/`));
});

test("the start and the callback answer hostile values without a 500, and never send the browser off the site but to the bank", async () => {
  const client = await playwrightRequest.newContext({ baseURL: appUrl });
  const hostile = fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom("\u0000", "//evil.example", "https://evil.example/x", "%2F%2Fevil.example", "/\\evil.example", "a".repeat(5_000)));
  const samples = fc.sample(fc.record({ code: hostile, state: hostile, error: hostile, iss: hostile, next: hostile }, { requiredKeys: [] }), { numRuns: 60, seed: 41 });
  const failures: string[] = [];
  for (const query of samples) {
    const search = new URLSearchParams(Object.entries(query) as [string, string][]).toString();
    for (const path of ["/api/auth/sso/sign-in/bank", "/api/auth/sso/callback/bank"]) {
      const response = await client.get(`${path}?${search}`, { maxRedirects: 0 });
      const location = response.headers().location ?? "";
      const isSafe = location === "" || location.startsWith("/") && !location.startsWith("//") || location.startsWith(`${idpUrl}/`);
      if (response.status() >= 500 || !isSafe) failures.push(`${path}?${search.slice(0, 120)}: ${response.status()} → ${location.slice(0, 120)}`);
    }
  }
  await client.dispose();
  expect(failures).toEqual([]);
});

test("a bank username that is not exactly a Veridesk username is refused, never normalised into another person's account", async ({ browser, page }) => {
  // Someone else at the bank (the stranger's subject) carries a name that lower-cases or trims to a Veridesk account's:
  // a Kelvin sign for the K of teller.kumasi, capitals and spaces around supervisor.hq.second.
  for (const claim of ["teller.\u212Aumasi", " SUPERVISOR.HQ.SECOND "]) {
    await fetch(`${idpUrl}/control/rename`, { method: "POST", body: new URLSearchParams({ subject: "idp-0007", username: claim }) });
    const context = await browser.newContext();
    const strangerPage = await context.newPage();
    await signInAtBank(strangerPage, { username: claim, password: "stranger-pass", code: "777777" });
    await expectRefusal(strangerPage, "username_not_exact", "Your bank username is not written as in Veridesk");
    await context.close();
  }
  await signInAtBank(page, { username: "admin", password: "admin-pass", code: "333333" });
  await expect(page).toHaveURL(`${appUrl}/`);
  await page.goto(`${appUrl}/admin/audit?action=auth.sso_refused`);
  const refusals = page.locator('[data-action="auth.sso_refused"]:visible').filter({ hasText: "not exactly a Veridesk username" });
  await expect(refusals).toHaveCount(2);
  await expect(refusals.filter({ hasText: "teller.\\u{212A}umasi" })).toHaveCount(1);
  await expect(refusals.filter({ hasText: "\\u{20}SUPERVISOR.HQ.SECOND\\u{20}" })).toHaveCount(1);
});
