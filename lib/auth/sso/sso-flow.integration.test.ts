import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";
import { startIdentityProvider, type RunningIdentityProvider } from "@/sandbox/identity-provider/provider";

/**
 * Single sign-on through better-auth's real handler against the local OpenID provider (a real
 * oidc-provider, in this process on a free port): the provider's own login and code pages are
 * posted as a browser would, and each person of its directory gets the outcome the policy says.
 */

const CLIENT_ID = "veridesk-sso-flow";
const CLIENT_SECRET = "sso-flow-secret";

const ports = await vi.hoisted(async () => {
  const net = await import("node:net");
  const freePort = () =>
    new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
  const found = { idp: await freePort(), app: await freePort() };
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("sso-flow", {
    PORT: String(found.app),
    SSO_ISSUER: `http://127.0.0.1:${found.idp}`,
    SSO_CLIENT_ID: "veridesk-sso-flow",
    SSO_CLIENT_SECRET: "sso-flow-secret",
    SSO_REQUIRED_GROUP: "veridesk-users",
    SSO_ADMIN_GROUP: "veridesk-admins",
  });
  return found;
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { auditEvents, authSessions, authUsers, ssoIdentities } = await import("@/lib/db/schema");
const { getAuth, handleAuthRequest } = await import("../server");
const { resolveSession } = await import("../session");
const staffAccounts = await import("@/lib/staff/accounts");
const staffBranches = await import("@/lib/staff/branches");
const { appUrl } = await import("@/lib/env");
const { ssoRedirectUri } = await import("./provider");

const IDP = `http://127.0.0.1:${ports.idp}`;
let idp: RunningIdentityProvider;
let branchId: string;

beforeAll(async () => {
  idp = await startIdentityProvider({ port: ports.idp, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [ssoRedirectUri()] });
  const db = await getDb();
  const { branch } = await staffBranches.ensureBranch(db, { system: "test" }, { code: "ACC", name: "Accra" });
  branchId = branch.id;
  for (const [username, role] of [
    ["teller.accra", "teller"],
    ["supervisor.kumasi", "supervisor"],
    ["admin", "admin"],
    ["admin.second", "admin"],
    ["supervisor.hq", "head_office_supervisor"],
    ["teller.kumasi", "teller"],
    ["supervisor.hq.second", "head_office_supervisor"],
  ] as const) {
    // supervisor.kumasi keeps the temporary password of a new account: a bank sign-in never asks for it.
    const password = username === "supervisor.kumasi" ? undefined : "a-long-password-1";
    await staffAccounts.createStaffAccount(db, { system: "test" }, { username, name: username, role, branchId, password });
  }
});

afterAll(async () => {
  await idp?.close();
  await closeDb();
  removeScratchProcessDatabase();
});

/** A browser's cookie jar, for the provider's pages and the app's answers alike. */
class Browser {
  readonly cookies = new Map<string, string>();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const target = new URL(url);
    const response =
      target.origin === appUrl()
        ? await (await getAuth()).handler(new Request(url, { ...init, headers }))
        : await fetch(url, { ...init, headers, redirect: "manual" });
    // The handler's answer knows no URL of its own; redirects are read against the request's.
    if (!response.url) Object.defineProperty(response, "url", { value: url });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0] ?? "";
      const index = pair.indexOf("=");
      const [name, value] = [pair.slice(0, index), pair.slice(index + 1)];
      if (value === "" || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects until a page answers, or the app sends the browser to one of its own pages. */
  async follow(response: Response): Promise<Response | URL> {
    let current = response;
    for (let hops = 0; hops < 12; hops++) {
      if (current.status < 300 || current.status >= 400) return current;
      const location = new URL(current.headers.get("location") ?? "", current.url);
      if (location.origin === appUrl() && !location.pathname.startsWith("/api/auth/")) return location;
      current = await this.request(location.href);
    }
    throw new Error("too many redirects");
  }

  post(url: string, fields: Record<string, string>): Promise<Response> {
    return this.request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
  }
}

function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error(`no form in page:\n${html}`);
  return new URL(match[1], IDP).href;
}

/** "Sign in with your bank account", the provider's login page, its code page: where the browser lands. */
async function bankSignIn(browser: Browser, person: { username: string; password: string; code?: string }, next = "/tokens"): Promise<URL> {
  const start = await browser.request(`${appUrl()}/api/auth/sso/sign-in/bank?next=${encodeURIComponent(next)}`);
  expect(start.status).toBe(302);
  const loginPage = await browser.follow(start);
  if (loginPage instanceof URL) return loginPage;
  const afterLogin = await browser.follow(await browser.post(formAction(await loginPage.text()), { username: person.username, password: person.password }));
  if (afterLogin instanceof URL) return afterLogin;
  const codePage = await afterLogin.text();
  expect(codePage).toContain("Second step");
  const afterCode = await browser.follow(await browser.post(formAction(codePage), { code: person.code ?? "" }));
  if (afterCode instanceof URL) return afterCode;
  throw new Error(`no way back to the app: ${afterCode.url} ${afterCode.status} ${await afterCode.text()}`);
}

function landing(url: URL): string {
  return `${url.pathname}${url.search}`;
}

async function sessionOf(browser: Browser) {
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return resolveSession(new Headers({ cookie }), { countsAsActivity: false });
}

async function latestAudit(action: string) {
  const [row] = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.action, action)).orderBy(desc(auditEvents.id)).limit(1);
  return row;
}

describe("single sign-on against the local provider", () => {
  it("signs a teller in with the bank's second factor, links the identity, and audits method, issuer, subject and amr", async () => {
    const browser = new Browser();
    expect(landing(await bankSignIn(browser, { username: "teller.accra", password: "teller-pass", code: "111111" }, "/tokens?day=today"))).toBe("/tokens?day=today");
    const { staff } = await sessionOf(browser);
    expect(staff?.username).toBe("teller.accra");
    expect(staff?.role).toBe("teller");
    expect(staff?.session.signInMethod).toBe("sso");
    const signIn = await latestAudit("auth.sign_in");
    expect(signIn?.details).toMatchObject({ method: "sso", issuer: IDP, subject: "idp-0001", amr: ["pwd", "otp", "mfa"], acr: "urn:veridesk:idp:mfa" });
    expect((await latestAudit("auth.sso_linked"))?.details).toMatchObject({ issuer: IDP, subject: "idp-0001", usernameClaim: "teller.accra" });
    const [link] = await (await getDb()).select().from(ssoIdentities).where(eq(ssoIdentities.subject, "idp-0001"));
    expect(link?.usernameAtLink).toBe("teller.accra");
  });

  it("lets an administrator in the admin group in, and refuses one outside it", async () => {
    expect(landing(await bankSignIn(new Browser(), { username: "admin", password: "admin-pass", code: "333333" }))).toBe("/tokens");
    expect(landing(await bankSignIn(new Browser(), { username: "admin.second", password: "admin-pass", code: "444444" }))).toBe("/sign-in?sso=admin_not_in_admin_group");
    expect((await latestAudit("auth.sso_refused"))?.details).toMatchObject({ reason: "admin_not_in_admin_group", subject: "idp-0004" });
  });

  it("refuses a person outside the required group, one without a second factor, and one Veridesk does not know", async () => {
    expect(landing(await bankSignIn(new Browser(), { username: "supervisor.hq", password: "outsider-pass", code: "555555" }))).toBe("/sign-in?sso=not_in_required_group");
    expect(landing(await bankSignIn(new Browser(), { username: "teller.kumasi", password: "password-only" }))).toBe("/sign-in?sso=no_second_factor");
    expect((await latestAudit("auth.sso_refused"))?.details).toMatchObject({ reason: "no_second_factor", amr: ["pwd"] });
    expect(landing(await bankSignIn(new Browser(), { username: "stranger", password: "stranger-pass", code: "777777" }))).toBe("/sign-in?sso=unknown_person");
  });

  it("refuses a username claim that is not exactly a username, before it picks an account, and audits the claim as sent", async () => {
    const db = await getDb();
    const stranger = { password: "stranger-pass", code: "777777" };
    for (const claim of [
      "supervisor.\u212Aumasi",
      " SUPERVISOR.HQ.SECOND ",
      "SUPERVISOR.KUMASI",
      "supervisor.kumasi\u0000",
      "supervisor.ku\u200Dmasi",
      "ｓｕｐｅｒｖｉｓｏｒ.ｋｕｍａｓｉ",
      "supervisor.kumasi".padEnd(200, "x"),
    ]) {
      // Another person at the bank (the stranger's subject) now carries a name that normalises to a Veridesk account's.
      await fetch(`${IDP}/control/rename`, { method: "POST", body: new URLSearchParams({ subject: "idp-0007", username: claim }) });
      const browser = new Browser();
      expect(landing(await bankSignIn(browser, { username: claim, ...stranger })), JSON.stringify(claim)).toBe("/sign-in?sso=username_not_exact");
      expect((await sessionOf(browser)).staff).toBeNull();
      const refusal = await latestAudit("auth.sso_refused");
      expect(refusal?.details).toMatchObject({ reason: "username_not_exact", subject: "idp-0007" });
      expect((refusal?.details as { usernameClaim: string }).usernameClaim).not.toBe(claim.trim().toLowerCase());
    }
    expect((await latestAudit("auth.sso_refused"))?.details).toMatchObject({ usernameClaim: `supervisor.kumasi${"x".repeat(103)}…` });
    const [kelvin] = await db.select().from(auditEvents).where(and(eq(auditEvents.action, "auth.sso_refused"), eq(auditEvents.actorLabel, "supervisor.\\u{212A}umasi")));
    expect(kelvin?.details).toMatchObject({ usernameClaim: "supervisor.\\u{212A}umasi" });
    // Nothing was linked: the accounts the claims normalise to are still free for their own people.
    expect(await db.select().from(ssoIdentities).where(eq(ssoIdentities.subject, "idp-0007"))).toEqual([]);
    const linkedUsernames = await db.select({ username: authUsers.username }).from(ssoIdentities).innerJoin(authUsers, eq(authUsers.id, ssoIdentities.userId));
    expect(linkedUsernames.map((row) => row.username)).not.toContain("supervisor.kumasi");
    expect(linkedUsernames.map((row) => row.username)).not.toContain("supervisor.hq.second");
  });

  it("never links a bank identity to a break-glass account, even one carrying its username exactly", async () => {
    await staffAccounts.createStaffAccount(await getDb(), { system: "test" }, { username: "glass.sso", name: "Glass SSO", role: "admin", branchId, password: "a-long-password-1", isBreakGlass: true });
    await fetch(`${IDP}/control/rename`, { method: "POST", body: new URLSearchParams({ subject: "idp-0007", username: "glass.sso" }) });
    const browser = new Browser();
    expect(landing(await bankSignIn(browser, { username: "glass.sso", password: "stranger-pass", code: "777777" }))).toBe("/sign-in?sso=break_glass_account");
    expect((await sessionOf(browser)).staff).toBeNull();
    expect((await latestAudit("auth.sso_refused"))?.details).toMatchObject({ reason: "break_glass_account", subject: "idp-0007", usernameClaim: "glass.sso" });
    expect(await (await getDb()).select().from(ssoIdentities).where(eq(ssoIdentities.subject, "idp-0007"))).toEqual([]);
  });

  it("keeps a renamed person on their account, and refuses another subject carrying a linked username", async () => {
    await bankSignIn(new Browser(), { username: "supervisor.kumasi", password: "supervisor-pass", code: "222222" });
    await fetch(`${IDP}/control/rename`, { method: "POST", body: new URLSearchParams({ subject: "idp-0002", username: "efua.boateng" }) });
    const renamed = new Browser();
    expect(landing(await bankSignIn(renamed, { username: "efua.boateng", password: "supervisor-pass", code: "222222" }))).toBe("/tokens");
    const { staff } = await sessionOf(renamed);
    expect(staff?.username).toBe("supervisor.kumasi");
    expect(staff?.mustChangePassword).toBe(false);
    // The stranger (another subject) now calls itself supervisor.kumasi at the bank.
    await fetch(`${IDP}/control/rename`, { method: "POST", body: new URLSearchParams({ subject: "idp-0007", username: "supervisor.kumasi" }) });
    expect(landing(await bankSignIn(new Browser(), { username: "supervisor.kumasi", password: "stranger-pass", code: "777777" }))).toBe("/sign-in?sso=identity_mismatch");
  });

  it("refuses a disabled account, and audits it under the account's branch", async () => {
    const db = await getDb();
    const [admin] = await db.select().from(ssoIdentities).where(eq(ssoIdentities.subject, "idp-0003"));
    await staffAccounts.setStaffDisabled(db, { system: "test" }, admin!.userId, true);
    expect(landing(await bankSignIn(new Browser(), { username: "admin", password: "admin-pass", code: "333333" }))).toBe("/sign-in?sso=disabled");
    const refusal = await latestAudit("auth.sso_refused");
    expect(refusal?.details).toMatchObject({ reason: "disabled", subject: "idp-0003" });
    expect(refusal?.branchId).toBe(branchId);
  });

  it("refuses a callback without the pending cookie (another browser's code) and a provider error", async () => {
    const browser = new Browser();
    const start = await browser.request(`${appUrl()}/api/auth/sso/sign-in/bank`);
    const authorize = new URL(start.headers.get("location") ?? "");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("prompt")).toBe("login");
    const stranger = new Browser();
    const answer = await stranger.request(`${appUrl()}/api/auth/sso/callback/bank?code=stolen&state=${authorize.searchParams.get("state")}`);
    expect(answer.headers.get("location")).toBe("/sign-in?sso=expired");
    expect((await latestAudit("auth.sso_refused"))?.details).toMatchObject({ reason: "expired" });
    const cancelled = await browser.request(`${appUrl()}/api/auth/sso/callback/bank?error=access_denied&state=${authorize.searchParams.get("state")}`);
    expect(cancelled.headers.get("location")).toBe("/sign-in?sso=cancelled");
  });

  it("refuses a password sign-in of an account while single sign-on is configured, unless it is break-glass, a right password exactly as a wrong one", async () => {
    const signIn = (username: string, password = "a-long-password-1") =>
      handleAuthRequest(
        new Request(`${appUrl()}/api/auth/sign-in/username`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: appUrl() },
          body: JSON.stringify({ username, password }),
        }),
      );
    const refused = await signIn("teller.accra");
    const wrong = await signIn("teller.accra", "not-the-password-1");
    // No password oracle for the accounts that sign in through the bank: the same status and body.
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual(await wrong.json());
    expect(wrong.status).toBe(401);
    // Only the bank's own trail tells them apart.
    const failures = await (await getDb())
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.sign_in_failed"), eq(auditEvents.actorLabel, "teller.accra")));
    expect(failures.map((failure) => (failure.details as { reason: string }).reason).sort()).toEqual(["invalid_credentials", "password_sign_in_off"]);

    await staffAccounts.createStaffAccount(await getDb(), { system: "test" }, { username: "glass", name: "Glass", role: "admin", branchId, password: "a-long-password-1", isBreakGlass: true });
    const allowed = await signIn("glass");
    expect(allowed.status).toBe(200);
    expect((await latestAudit("auth.sign_in"))?.details).toMatchObject({ method: "password", breakGlass: true });
    const sessions = await (await getDb()).select().from(authSessions);
    expect(sessions.every((session) => session.authMethod === "sso" || session.authMethod === "password")).toBe(true);
  });
});
