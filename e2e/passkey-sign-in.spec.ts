import type { CDPSession, Page } from "@playwright/test";
import { expect, signInWithForm, test, uniqueSuffix } from "@/e2e/support/auth";

/**
 * Passkeys with Chromium's virtual authenticator (CDP WebAuthn domain): a teller adds one on the
 * account page, signs out, signs in with it alone and lands on the home page; the audit trail
 * names the method. Then the authenticator stops verifying its user (no PIN, no fingerprint) and
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

test("a teller adds a passkey, signs in with it alone, and is refused when the passkey does not verify them", async ({ browser, sessionOf }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: localBase });
  const page = await context.newPage();
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

  await signInWithForm(page, "teller.accra", "veridesk-demo");
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

  // Signed out, the passkey alone signs in: no username, no password.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.screenshot({ path: "/tmp/passkey-sign-in-page.png", fullPage: true });
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(`${localBase}/`);
  await page.goto("/account/security");
  await expect(page.getByText("This session was signed in with passkey.")).toBeVisible();
  await expect(list.getByRole("listitem").filter({ hasText: name })).toContainText("last used");

  // The audit trail names the way in.
  const auditContext = await browser.newContext();
  await auditContext.addCookies((await sessionOf("supervisor.hq")).cookies);
  const auditPage = await auditContext.newPage();
  await auditPage.goto("/admin/audit?action=auth.sign_in");
  const passkeySignIns = auditPage
    .locator("tbody tr")
    .filter({ hasText: "teller.accra" })
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
  await expect(auditPage.locator("tbody tr").filter({ hasText: "teller.accra" }).filter({ hasText: /user_not_verified|not verified/i }).first()).toBeVisible();
  await auditContext.close();
  await context.close();
});

test("on the second-factor page a new passkey is used once, which replaces the password session; it can be removed", async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: localBase });
  const page = await context.newPage();
  await addVirtualAuthenticator(page);
  await signInWithForm(page, "teller.accra", "veridesk-demo");
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
