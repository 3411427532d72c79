import type { CDPSession, Page } from "@playwright/test";
import { callServerAction } from "@/e2e/support/action-calls";
import { createTestAccount, expect, readBranchIds, signInWithForm, test, uniqueSuffix } from "@/e2e/support/auth";

/**
 * Passkeys with Chromium's virtual authenticator (CDP WebAuthn domain): a teller adds one on the
 * account page, signs out, finds that the password alone no longer signs in (nor a temporary one
 * an administrator sets), signs in with the passkey alone and lands on the home page; the audit
 * trail names the method. Each test has an account of its own: a passkey changes how its account
 * signs in, and the demo accounts sign in with passwords in every other spec. Then the authenticator stops verifying its user (no PIN, no fingerprint) and
 * the sign-in is refused in plain words: by Chromium itself, since the site requires verification,
 * and by the server when a client asks the authenticator to skip it.
 *
 * WebAuthn refuses an IP address as relying party, and the suite's app runs at 127.0.0.1: this
 * spec's browser opens the same server as `localhost` (lib/auth/passkey/relying-party.ts).
 */

const localBase = (() => {
  const url = new URL(process.env.APP_URL!);
  url.hostname = "localhost";
  return url.origin;
})();

async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** A teller of the suite's own, signed in with nothing but a password yet. */
async function freshTeller(browser: import("@playwright/test").Browser, apiAs: (name: "admin") => Promise<import("@playwright/test").APIRequestContext>, prefix: string) {
  const admin = await apiAs("admin");
  const adminContext = await browser.newContext({ storageState: await admin.storageState() });
  const branchIds = await readBranchIds(await adminContext.newPage());
  await adminContext.close();
  return createTestAccount(admin, { username: `${prefix}.${uniqueSuffix()}`, name: "Esi Passkey", role: "teller", branchCode: "ACC" }, branchIds);
}

test("a teller adds a passkey, then signs in with it alone: never with the password, nor a password an administrator reset; refused when the passkey does not verify them", async ({ browser, sessionOf, apiAs }) => {
  test.setTimeout(120_000);
  const teller = await freshTeller(browser, apiAs, "pk");
  const context = await browser.newContext({ baseURL: localBase });
  const page = await context.newPage();
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

  await signInWithForm(page, teller.username, teller.password);
  await expect(page).toHaveURL(`${localBase}/`);
  await page.goto("/account/security");
  const name = `Counter PC ${uniqueSuffix()}`;
  await page.getByLabel("Name for a new passkey").fill(name);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey added" })).toBeVisible();
  const list = page.getByRole("list", { name: "Your passkeys" });
  await expect(list.getByRole("listitem").filter({ hasText: name })).toContainText("not used yet");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials.filter((credential) => credential.isResidentCredential)).toHaveLength(1);
  await page.screenshot({ path: "/tmp/passkey-section.png", fullPage: true });

  // Signed out, the password alone no longer signs in: the account holds a passkey.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  const passwordAlone = page.waitForResponse((response) => response.url().endsWith("/api/auth/sign-in/username"));
  await page.getByLabel("Username").fill(teller.username);
  await page.getByLabel("Password").fill(teller.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  expect((await passwordAlone).status()).toBe(403);
  const passkeyNeeded = page.locator("form").getByRole("alert");
  await expect(passkeyNeeded).toContainText("This account signs in with its passkey, not its password alone.");
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await context.cookies()).filter((cookie) => cookie.name.endsWith("session_token"))).toEqual([]);
  await page.screenshot({ path: "/tmp/passkey-password-refused.png", fullPage: true });

  // One administrator resets the password (a temporary one, shown to them): it opens nothing
  // either. Removing a lost passkey takes two administrators (the second-factor reset).
  const { result: reset } = await callServerAction(await apiAs("admin"), { file: "app/(staff)/admin/staff/actions.ts", name: "resetPasswordAction" }, { userId: teller.userId });
  expect(reset?.ok, JSON.stringify(reset)).toBe(true);
  const temporaryPassword = (reset!.data as { temporaryPassword: string }).temporaryPassword;
  const takeover = await browser.newContext({ baseURL: localBase });
  const takeoverAnswer = await takeover.request.post("/api/auth/sign-in/username", { data: { username: teller.username, password: temporaryPassword } });
  expect(takeoverAnswer.status()).toBe(403);
  expect(await takeoverAnswer.json()).toMatchObject({ code: "PASSKEY_REQUIRED" });
  expect((await takeover.cookies()).filter((cookie) => cookie.name.endsWith("session_token"))).toEqual([]);
  await takeover.close();

  // The passkey alone signs in: no username, no password; the temporary password is replaced next.
  await page.goto("/sign-in");
  await page.screenshot({ path: "/tmp/passkey-sign-in-page.png", fullPage: true });
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(/\/change-password/);
  await page.getByLabel("Temporary password", { exact: true }).fill(temporaryPassword);
  await page.getByLabel("New password", { exact: true }).fill(`${teller.password}-2`);
  await page.getByLabel("New password again", { exact: true }).fill(`${teller.password}-2`);
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL(`${localBase}/`);
  await page.goto("/account/security");
  // Choosing the password kept the passkey as this session's proof.
  await expect(page.getByText("This session was signed in with passkey.")).toBeVisible();
  await expect(list.getByRole("listitem").filter({ hasText: name })).toContainText("last used");

  // The audit trail names the way in.
  const auditContext = await browser.newContext();
  await auditContext.addCookies((await sessionOf("supervisor.hq")).cookies);
  const auditPage = await auditContext.newPage();
  await auditPage.goto("/admin/audit?action=auth.sign_in");
  const passkeySignIns = auditPage
    .locator("tbody tr")
    .filter({ hasText: teller.username })
    .filter({ has: auditPage.locator('[data-detail="method"]', { hasText: /passkey/i }) });
  await expect(passkeySignIns.first()).toBeVisible();

  // The authenticator no longer checks who holds it. The site asks for user verification, so
  // Chromium itself refuses to answer; the words say what a passkey must do.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
  await page.getByRole("button", { name: "Use a passkey" }).click();
  const refusal = page.getByRole("alert").filter({ hasText: "Not signed in" });
  await expect(refusal).toContainText("Your passkey must check it is you (PIN or fingerprint)");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.screenshot({ path: "/tmp/passkey-refused.png", fullPage: true });

  // A client that tells the authenticator not to bother (the options rewritten on the way): the
  // assertion arrives without the UV flag, and the server refuses it and audits why.
  await page.route("**/api/auth/passkey/generate-authentication-options", async (route) => {
    const answer = await route.fetch();
    const options = (await answer.json()) as Record<string, unknown>;
    await route.fulfill({ response: answer, json: { ...options, userVerification: "discouraged" } });
  });
  const verifyAnswer = page.waitForResponse((response) => response.url().endsWith("/api/auth/passkey/verify-authentication"));
  await page.getByRole("button", { name: "Use a passkey" }).click();
  const verified = await verifyAnswer;
  expect(verified.status()).toBe(401);
  expect(await verified.json()).toMatchObject({ code: "PASSKEY_USER_NOT_VERIFIED" });
  await expect(refusal).toContainText("Your passkey must check it is you (PIN or fingerprint). Set a PIN or fingerprint on it, then try again.");
  await expect(page).toHaveURL(/\/sign-in/);

  await auditPage.goto("/admin/audit?action=auth.sign_in_failed");
  await expect(auditPage.locator("tbody tr").filter({ hasText: teller.username }).filter({ hasText: /user_not_verified|not verified/i }).first()).toBeVisible();
  await auditContext.close();
  await context.close();
});

test("on the second-factor page a new passkey is used once, which replaces the password session; it can be removed", async ({ browser, apiAs }) => {
  test.setTimeout(90_000);
  const teller = await freshTeller(browser, apiAs, "pk.enrol");
  const context = await browser.newContext({ baseURL: localBase });
  const page = await context.newPage();
  await addVirtualAuthenticator(page);
  await signInWithForm(page, teller.username, teller.password);
  await expect(page).toHaveURL(`${localBase}/`);

  await page.goto("/second-factor");
  const name = `Phone ${uniqueSuffix()}`;
  await page.getByLabel("Name for a new passkey").fill(name);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Now use it once to finish" })).toBeVisible();
  await page.screenshot({ path: "/tmp/passkey-enrolment.png", fullPage: true });
  await page.getByRole("button", { name: "Use my new passkey" }).click();
  await expect(page).toHaveURL(`${localBase}/`);

  await page.goto("/account/security");
  await expect(page.getByText("This session was signed in with passkey.")).toBeVisible();
  const entry = page.getByRole("list", { name: "Your passkeys" }).getByRole("listitem").filter({ hasText: name });
  await entry.getByRole("button", { name: "Remove" }).click();
  await entry.getByRole("button", { name: `Remove "${name}"` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey removed" })).toBeVisible();
  await expect(entry).toHaveCount(0);
  await context.close();
});
