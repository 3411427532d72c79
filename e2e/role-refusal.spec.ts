import { randomUUID } from "node:crypto";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { demoAccounts } from "@/lib/staff/demo-accounts";
import { hasPermission } from "@/lib/auth/permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { actions, pages, refusedRoles, routes, type Audience } from "./access-matrix";
import { readAppFiles } from "@/e2e/support/app-files";
import { expect, test, type DemoUsername } from "@/e2e/support/auth";
import { callServerAction, listBuiltActions } from "@/e2e/support/action-calls";

/**
 * The role-refusal suite: everything in app/ is in the access matrix, and each page, route
 * handler and server action refuses whoever may not use it — without the proxy's help (requests
 * carrying a worthless session cookie get past the proxy and must still be refused).
 */

/** One demo account per role (the first, for roles with two). */
const accountOfRole = Object.fromEntries(
  [...demoAccounts].reverse().map((account) => [account.role, account.username]),
) as Record<StaffRole, DemoUsername>;

const FAKE_SESSION_COOKIE = "veridesk.session_token=forged.d2hhdGV2ZXI";

/** A redirect to the sign-in page that comes back to `url` afterwards. */
function expectSignInRedirect(response: APIResponse, url: string) {
  expect(response.status(), `${url}: ${response.status()}`).toBe(307);
  const target = new URL(response.headers().location ?? "", "http://app.invalid");
  expect(target.pathname).toBe("/sign-in");
  expect(target.searchParams.get("next") ?? "/").toBe(url);
}

/** Refused for the role: 403 (next.config authInterrupts) or the redirect to the home page's notice. */
function isRefusedPage(response: APIResponse, url: string): boolean {
  if (response.status() === 403) return true;
  if (response.status() !== 307) return false;
  const target = new URL(response.headers().location ?? "", "http://app.invalid");
  return target.pathname === "/" && target.searchParams.get("refused") === url;
}

test.describe("the access matrix", () => {
  test("lists every page, route handler and server action in app/, and nothing that is gone", () => {
    const found = readAppFiles();
    const listedPages = pages.map((page) => page.file);
    expect(found.pages.filter((file) => !listedPages.includes(file)), "pages missing from e2e/access-matrix.ts").toEqual([]);
    expect(listedPages.filter((file) => !found.pages.includes(file)), "matrix pages that no longer exist").toEqual([]);

    for (const route of found.routes) {
      const entry = routes.find((candidate) => candidate.file === route.file);
      expect(entry, `route handler ${route.file} missing from e2e/access-matrix.ts`).toBeDefined();
      expect(Object.keys(entry!.methods).sort(), `methods of ${route.file}`).toEqual([...route.methods].sort());
    }
    expect(routes.filter((entry) => !found.routes.some((route) => route.file === entry.file)).map((entry) => entry.file)).toEqual([]);

    const foundActions = found.actions.flatMap((file) => file.names.map((name) => `${file.file}#${name}`));
    const listedActions = actions.map((action) => `${action.file}#${action.name}`);
    expect(foundActions.filter((action) => !listedActions.includes(action)), "server actions missing from e2e/access-matrix.ts").toEqual([]);
    expect(listedActions.filter((action) => !foundActions.includes(action)), "matrix actions that no longer exist").toEqual([]);
  });

  test("covers every server action of the build, wherever it is defined", () => {
    const listed = actions.map((action) => `${action.file}#${action.name}`);
    const built = listBuiltActions().map((action) => `${action.file}#${action.name}`);
    expect(built.length).toBeGreaterThan(0);
    expect(built.filter((action) => !listed.includes(action)), "built actions missing from the matrix").toEqual([]);
  });
});

test.describe("signed out", () => {
  for (const page of pages.filter((entry) => entry.audience.kind !== "public")) {
    test(`page ${page.url} sends the browser to sign-in, with or without a (forged) cookie`, async ({ apiAs }) => {
      const anonymous = await apiAs(null);
      expectSignInRedirect(await anonymous.get(page.url, { maxRedirects: 0 }), page.url);
      // Past the proxy (it sees a cookie), the page itself must refuse.
      expectSignInRedirect(await anonymous.get(page.url, { maxRedirects: 0, headers: { cookie: FAKE_SESSION_COOKIE } }), page.url);
    });
  }

  for (const route of routes) {
    for (const [method, audience] of Object.entries(route.methods)) {
      if (audience.kind === "public") continue;
      test(`route ${method} ${route.url} answers 401 and no data`, async ({ apiAs }) => {
        const anonymous = await apiAs(null);
        for (const cookie of [undefined, FAKE_SESSION_COOKIE]) {
          const response = await anonymous.fetch(route.url, { method, maxRedirects: 0, headers: cookie ? { cookie } : {} });
          expect(response.status()).toBe(401);
          const body = (await response.json()) as Record<string, unknown>;
          expect(Object.keys(body)).toEqual(["error"]);
          expect(body.error).toMatchObject({ code: "UNAUTHENTICATED" });
        }
      });
    }
  }

  for (const action of actions) {
    test(`action ${action.name} (${action.file}) answers UNAUTHENTICATED`, async ({ apiAs }) => {
      const anonymous = await apiAs(null);
      const { status, result } = await callServerAction(anonymous, action, {});
      expect(status).toBe(200);
      expect(result).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
      expect(result?.data).toBeUndefined();
    });
  }
});

test.describe("the wrong role", () => {
  const describeAudience = (audience: Audience) => (audience.kind === "public" ? "everyone" : audience.roles.join(", "));

  for (const page of pages) {
    const refused = refusedRoles(page.audience);
    if (refused.length === 0) continue;
    test(`page ${page.url} (for ${describeAudience(page.audience)}) refuses ${refused.join(", ")}`, async ({ apiAs }) => {
      for (const role of refused) {
        const client = await apiAs(accountOfRole[role]);
        const response = await client.get(page.url, { maxRedirects: 0 });
        expect(isRefusedPage(response, page.url), `${role} on ${page.url}: ${response.status()} ${response.headers().location ?? ""}`).toBe(true);
      }
    });
  }

  // Pages of one record (a dynamic segment) are opened by their own specs, with a real record.
  for (const page of pages.filter((entry) => entry.audience.kind === "staff" && !entry.file.includes("["))) {
    test(`page ${page.url} opens for ${describeAudience(page.audience)}`, async ({ apiAs }) => {
      for (const role of page.audience.kind === "staff" ? page.audience.roles : []) {
        const client = await apiAs(accountOfRole[role]);
        const response = await client.get(page.url, { maxRedirects: 0 });
        // /tokens/new forwards to its first form; everything else renders.
        expect([200, 307], `${role} on ${page.url}`).toContain(response.status());
        if (response.status() === 307) expect(response.headers().location).not.toContain("refused");
      }
    });
  }

  for (const route of routes) {
    for (const [method, audience] of Object.entries(route.methods)) {
      const refused = refusedRoles(audience);
      if (refused.length === 0) continue;
      test(`route ${method} ${route.url} answers 403 to ${refused.join(", ")}`, async ({ apiAs }) => {
        for (const role of refused) {
          const response = await (await apiAs(accountOfRole[role])).fetch(route.url, { method, maxRedirects: 0 });
          expect(response.status(), role).toBe(403);
          expect(await response.json()).toEqual({ error: expect.objectContaining({ code: "FORBIDDEN" }) });
        }
      });
    }
  }

  for (const action of actions) {
    const refused = refusedRoles(action.audience);
    test(`action ${action.name} refuses ${refused.join(", ") || "nobody"} and lets ${describeAudience(action.audience)} through`, async ({ apiAs }) => {
      for (const role of refused) {
        const { result } = await callServerAction(await apiAs(accountOfRole[role]), action, {});
        expect(result, role).toMatchObject({ ok: false, code: "FORBIDDEN" });
      }
      if (!action.isSafeToProbe || action.audience.kind !== "staff") return;
      for (const role of action.audience.roles) {
        // An empty input: an allowed role gets past authorisation and stops at validation.
        const { result } = await callServerAction(await apiAs(accountOfRole[role]), action, {});
        expect(result, role).toMatchObject({ ok: false, code: "VALIDATION" });
      }
    });
  }
});

test.describe("branch scope", () => {
  /** Issues a token at Accra through the teller's own action; answers its token request id. */
  async function issueTokenAtAccra(tellerOfAccra: APIRequestContext): Promise<string> {
    // The consent wording in force, as the form shows it: another spec may have published a new one.
    const form = await (await tellerOfAccra.get("/tokens/new/fingerprint")).text();
    const consentWordingVersion = Number(/wording version (?:<!-- -->)?(\d+)/.exec(form)?.[1]);
    const { result } = await callServerAction(
      tellerOfAccra,
      { file: "app/(staff)/tokens/new/fingerprint/actions.ts", name: "issueFingerprintTokenAction" },
      {
        ghanaCardNumber: `GHA-7${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}-4`,
        referenceId: "0244123456",
        purpose: "Account opening",
        consentAttested: true,
        consentWordingVersion,
        idempotencyKey: randomUUID(),
        allowDuplicate: true,
      },
    );
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true, data: { status: "issued" } });
    return (result!.data as { tokenRequestId: string }).tokenRequestId;
  }

  test("an Accra token is 'not found' for Kumasi staff who guess its id, and opens for Accra and head office", async ({ apiAs }) => {
    const tokenRequestId = await issueTokenAtAccra(await apiAs("teller.accra"));
    const scoped = [
      ...pages.map((page) => ({ ...page, method: "GET" })),
      ...routes.flatMap((route) => Object.entries(route.methods).map(([method, audience]) => ({ ...route, method, audience }))),
    ].filter((entry) => entry.urlOfTokenRequest);
    expect(scoped.length).toBeGreaterThan(0);
    for (const entry of scoped) {
      const url = entry.urlOfTokenRequest!(tokenRequestId);
      const allowed = demoAccounts.filter((account) => entry.audience.kind === "staff" && entry.audience.roles.includes(account.role));
      for (const account of allowed) {
        const isInScope = hasPermission(account.role, "branches.all") || account.branchCode === "ACC";
        const response = await (await apiAs(account.username)).fetch(url, { method: entry.method, maxRedirects: 0 });
        const what = `${account.username} (${account.branchCode}) on ${entry.method} ${url}: ${response.status()} ${response.headers().location ?? ""}`;
        if (!isInScope) {
          expect(response.status(), what).toBe(404);
        } else {
          // Opens — or forwards within the token's pages (a slip of an unfinished token goes to the token).
          expect([200, 307], what).toContain(response.status());
          if (response.status() === 307) expect(response.headers().location, what).toContain(tokenRequestId);
        }
      }
    }
  });

  test("a branch supervisor's audit trail holds only their branch, whatever the filter asks", async ({ apiAs, page, sessionOf }) => {
    // Make sure both branches have events: sign-ins of Accra and Kumasi staff.
    await sessionOf("teller.accra");
    await sessionOf("teller.kumasi");
    await page.context().addCookies((await sessionOf("supervisor.kumasi")).cookies);
    await page.goto("/admin/audit");
    await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
    await expect(page.getByText("Events of Kumasi – Adum")).toBeVisible();
    // Each event's branch is shown under its time; the row carries its code.
    const rows = page.locator("tbody tr[data-branch-code]");
    await expect(rows.first()).toBeVisible();
    const codes = new Set(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-branch-code"))));
    expect([...codes]).toEqual(["KUM"]);

    // The staff filter offers only Kumasi staff; asking for an Accra member's events shows none.
    const staffOptions = await page.locator('select[name="staff"] option').allTextContents();
    expect(staffOptions.some((text) => text.includes("teller.accra"))).toBe(false);
    const admin = await apiAs("admin");
    const staffList = await (await admin.get("/admin/staff")).text();
    const accraTellerId = /href="\/admin\/staff\/([0-9a-f-]{36})"[^>]*>Ama Owusu/.exec(staffList)?.[1];
    expect(accraTellerId).toBeDefined();
    await page.goto(`/admin/audit?staff=${accraTellerId}`);
    await expect(page.getByText("No events match")).toBeVisible();
  });
});
