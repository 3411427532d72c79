import type { APIResponse } from "@playwright/test";
import { demoAccounts } from "@/lib/staff/demo-accounts";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { pages, routes, type Audience } from "./access-matrix";
import { expect, test, type DemoUsername } from "@/e2e/support/auth";

/**
 * The security headers on every page and route of the access matrix, requested by a role that may
 * use it: CSP with a fresh nonce on pages (no 'unsafe-inline' script), nothing may frame Veridesk,
 * nosniff, no referrer, a Permissions-Policy, and no caching of anything that can show customer
 * data. (HSTS is production only: proxy.test.ts proves it is added there and not elsewhere.)
 */

const accountOfRole = Object.fromEntries(
  [...demoAccounts].reverse().map((account) => [account.role, account.username]),
) as Record<StaffRole, DemoUsername>;

const usernameFor = (audience: Audience): DemoUsername | null => (audience.kind === "public" ? null : accountOfRole[audience.roles[0]!]);

function expectCommonHeaders(response: APIResponse, label: string) {
  const headers = response.headers();
  expect(headers["x-frame-options"], label).toBe("DENY");
  expect(headers["x-content-type-options"], label).toBe("nosniff");
  expect(headers["referrer-policy"], label).toBe("no-referrer");
  expect(headers["permissions-policy"], label).toContain("camera=()");
  expect(headers["content-security-policy"], label).toContain("frame-ancestors 'none'");
  expect(headers["strict-transport-security"], `${label}: HSTS only in production`).toBeUndefined();
  expect(headers["x-powered-by"], label).toBeUndefined();
}

function nonceOf(policy: string): string {
  const scriptSrc = policy.split(";").map((directive) => directive.trim()).find((directive) => directive.startsWith("script-src"));
  expect(scriptSrc).toBeDefined();
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).not.toContain("'unsafe-eval'");
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSrc!)?.[1];
  expect(nonce, "script-src has a nonce").toBeDefined();
  return nonce!;
}

test.describe("security headers", () => {
  for (const page of pages) {
    test(`page ${page.url}`, async ({ apiAs }) => {
      const api = await apiAs(usernameFor(page.audience));
      const response = await api.get(page.url, { maxRedirects: 0 });
      expect(response.status(), page.url).toBeLessThan(500);
      expectCommonHeaders(response, page.url);
      if (response.status() !== 200) return;
      const html = await response.text();
      const nonce = nonceOf(response.headers()["content-security-policy"]!);
      // Every script Next wrote carries this request's nonce; none runs without it.
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, `${page.url}: ${tag.slice(0, 80)}`).toContain(`nonce="${nonce}"`);
      // Pages are rendered per request with the session: never stored by a browser or a proxy.
      expect(response.headers()["cache-control"], page.url).toContain("no-store");
      // A fresh nonce for every request.
      const again = await api.get(page.url, { maxRedirects: 0 });
      expect(nonceOf(again.headers()["content-security-policy"]!)).not.toBe(nonce);
    });
  }

  for (const route of routes) {
    for (const [method, audience] of Object.entries(route.methods)) {
      test(`${method} ${route.url}`, async ({ apiAs }) => {
        const api = await apiAs(usernameFor(audience));
        // Refused or empty bodies are fine here: every answer carries the headers.
        const response = await api.fetch(route.url, { method, maxRedirects: 0, headers: { "sec-fetch-site": "same-origin" } });
        expectCommonHeaders(response, `${method} ${route.url}`);
        expect(response.headers()["content-security-policy"]).toContain("default-src 'none'");
        if (response.status() === 200 || response.status() >= 400) {
          expect(response.headers()["cache-control"] ?? "", `${method} ${route.url}`).toMatch(/no-store|private/);
        }
      });
    }
  }

  test("the browser runs the app under the policy, with no CSP violation", async ({ browser, apiAs }) => {
    const violations: string[] = [];
    const watch = (page: import("@playwright/test").Page) =>
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text())) violations.push(message.text());
      });
    // Signed out: the sign-in form's own checks run only once Next's scripts have run.
    const anonymous = await browser.newContext();
    const signIn = await anonymous.newPage();
    watch(signIn);
    await signIn.goto("/sign-in");
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await expect(signIn.getByText("Enter your username.")).toBeVisible();
    await anonymous.close();
    // Signed in: a page with live client components.
    const context = await browser.newContext({ storageState: await (await apiAs("teller.accra")).storageState() });
    const page = await context.newPage();
    watch(page);
    await page.goto("/tokens/new/remote");
    await expect(page.getByLabel("Customer's mobile number")).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
    await context.close();
  });
});
