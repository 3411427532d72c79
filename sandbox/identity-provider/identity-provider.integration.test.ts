// Starts `npm run idp`'s entry point as a real process and signs in through it the way a relying
// party and a browser would: discovery, authorize with PKCE, the login and code pages, the token
// endpoint, and the ID token checked against the provider's JWKS.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";

import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PORT = 4611;
const ISSUER = `http://127.0.0.1:${PORT}`;
const CLIENT_ID = "veridesk-test";
const CLIENT_SECRET = "test-secret";
const REDIRECT_URI = "http://127.0.0.1:3999/api/auth/sso/callback/bank";

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  code_challenge_methods_supported: string[];
}

let child: ChildProcess;
let discovery: Discovery;

beforeAll(async () => {
  child = spawn(path.resolve("node_modules/.bin/tsx"), ["sandbox/identity-provider/server.ts"], {
    env: { ...process.env, IDP_PORT: String(PORT), IDP_CLIENT_ID: CLIENT_ID, IDP_CLIENT_SECRET: CLIENT_SECRET, IDP_REDIRECT_URIS: REDIRECT_URI },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Identity provider listening on")) resolve();
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`identity provider exited (${code}):\n${output}`)));
  });
  const response = await fetch(`${ISSUER}/.well-known/openid-configuration`);
  expect(response.status).toBe(200);
  discovery = (await response.json()) as Discovery;
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

/** The cookies a browser would keep for the provider (paths aside: the names do not clash). */
class Browser {
  private cookies = new Map<string, string>();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0] ?? "";
      const index = pair.indexOf("=");
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects on the provider; stops at the first one leaving it (the relying party's callback). */
  async follow(response: Response): Promise<Response | URL> {
    let current = response;
    for (let hops = 0; hops < 10; hops++) {
      if (current.status < 300 || current.status >= 400) return current;
      const location = new URL(current.headers.get("location") ?? "", ISSUER);
      if (location.origin !== ISSUER) return location;
      current = await this.request(location.href);
    }
    throw new Error("too many redirects");
  }

  post(url: string, fields: Record<string, string>): Promise<Response> {
    return this.request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error(`no form in page:\n${html}`);
  return new URL(match[1], ISSUER).href;
}

async function startSignIn(browser: Browser) {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const state = randomBytes(8).toString("hex");
  const nonce = randomBytes(8).toString("hex");
  const authorize = new URL(discovery.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    scope: "openid profile",
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }).toString();
  const page = await browser.follow(await browser.request(authorize.href));
  if (page instanceof URL) throw new Error(`left the provider at once: ${page.href}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("Bank sign-in");
  return { verifier, state, nonce, loginAction: formAction(html) };
}

async function exchange(callback: URL, flow: { verifier: string; state: string; nonce: string }) {
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  expect(callback.searchParams.get("state")).toBe(flow.state);
  const code = callback.searchParams.get("code");
  expect(code).toBeTruthy();
  const response = await fetch(discovery.token_endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "authorization_code", code: code ?? "", redirect_uri: REDIRECT_URI, code_verifier: flow.verifier }).toString(),
  });
  expect(response.status).toBe(200);
  const tokens = (await response.json()) as { id_token: string };
  const { payload } = await jwtVerify(tokens.id_token, createRemoteJWKSet(new URL(discovery.jwks_uri)), {
    issuer: ISSUER,
    audience: CLIENT_ID,
  });
  expect(payload.nonce).toBe(flow.nonce);
  expect(typeof payload.auth_time).toBe("number");
  return payload;
}

describe("local identity provider", () => {
  it("publishes discovery with PKCE S256", () => {
    expect(discovery.issuer).toBe(ISSUER);
    expect(discovery.code_challenge_methods_supported).toEqual(["S256"]);
  });

  it("signs in a person with a second factor: amr pwd+otp+mfa, groups, stable subject", async () => {
    const browser = new Browser();
    const flow = await startSignIn(browser);
    const afterPassword = await browser.post(flow.loginAction, { username: "admin", password: "admin-pass" });
    expect(afterPassword.status).toBe(200);
    const codeHtml = await afterPassword.text();
    expect(codeHtml).toContain("One-time code");
    const callback = await browser.follow(await browser.post(formAction(codeHtml), { code: "333333" }));
    if (!(callback instanceof URL)) throw new Error(`no redirect to the client: ${callback.status} ${await callback.text()}`);
    const claims = await exchange(callback, flow);
    expect(claims.sub).toBe("idp-0003");
    expect(claims.preferred_username).toBe("admin");
    expect(claims.name).toBe("Akosua Darko");
    expect(claims.groups).toEqual(["veridesk-users", "veridesk-admins"]);
    expect(claims.amr).toEqual(["pwd", "otp", "mfa"]);
    expect(claims.acr).toBe("urn:veridesk:idp:mfa");
  });

  it("signs in a password-only person with amr pwd and no second step", async () => {
    const browser = new Browser();
    const flow = await startSignIn(browser);
    const callback = await browser.follow(await browser.post(flow.loginAction, { username: "teller.kumasi", password: "password-only" }));
    if (!(callback instanceof URL)) throw new Error(`no redirect to the client: ${callback.status} ${await callback.text()}`);
    const claims = await exchange(callback, flow);
    expect(claims.sub).toBe("idp-0006");
    expect(claims.preferred_username).toBe("teller.kumasi");
    expect(claims.groups).toEqual(["veridesk-users"]);
    expect(claims.amr).toEqual(["pwd"]);
    expect(claims.acr).toBe("urn:veridesk:idp:pwd");
  });

  it("refuses a wrong password and a wrong code on its pages", async () => {
    const browser = new Browser();
    const flow = await startSignIn(browser);
    const wrongPassword = await browser.post(flow.loginAction, { username: "teller.accra", password: "nope" });
    expect(wrongPassword.status).toBe(401);
    expect(await wrongPassword.text()).toContain("Wrong username or password.");
    const afterPassword = await browser.post(flow.loginAction, { username: "teller.accra", password: "teller-pass" });
    const codeAction = formAction(await afterPassword.text());
    const wrongCode = await browser.post(codeAction, { code: "000000" });
    expect(wrongCode.status).toBe(401);
    expect(await wrongCode.text()).toContain("Wrong code.");
  });

  it("renames a person through the control endpoint and keeps their subject", async () => {
    const renamed = await fetch(`${ISSUER}/control/rename`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ subject: "idp-0001", username: "ama.owusu" }).toString(),
    });
    expect(renamed.status).toBe(204);
    const browser = new Browser();
    const flow = await startSignIn(browser);
    const afterPassword = await browser.post(flow.loginAction, { username: "ama.owusu", password: "teller-pass" });
    const callback = await browser.follow(await browser.post(formAction(await afterPassword.text()), { code: "111111" }));
    if (!(callback instanceof URL)) throw new Error(`no redirect to the client: ${callback.status}`);
    const claims = await exchange(callback, flow);
    expect(claims.sub).toBe("idp-0001");
    expect(claims.preferred_username).toBe("ama.owusu");
  });
});
