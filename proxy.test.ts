import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { proxy } from "./proxy";

/** The proxy's security headers in each environment (the e2e header suite runs APP_ENV=test). */

const previousAppEnv = process.env.APP_ENV;
afterEach(() => {
  process.env.APP_ENV = previousAppEnv;
});

const get = (path: string) => proxy(new NextRequest(new URL(path, "https://desk.example.bank"), { headers: { cookie: "veridesk.session_token=x" } }));

describe("proxy security headers", () => {
  it("adds HSTS in production, to pages, routes and redirects", () => {
    process.env.APP_ENV = "production";
    for (const response of [get("/review"), get("/api/tokens"), proxy(new NextRequest("https://desk.example.bank/admin/audit"))]) {
      expect(response.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    }
  });

  it("adds no HSTS outside production (a local run is plain http)", () => {
    process.env.APP_ENV = "local";
    expect(get("/review").headers.get("strict-transport-security")).toBeNull();
  });

  it("gives each page request its own nonce, in the answer and in the request Next renders", () => {
    const first = get("/review");
    const second = get("/review");
    const nonceOf = (policy: string | null) => /'nonce-([^']+)'/.exec(policy ?? "")?.[1];
    const nonce = nonceOf(first.headers.get("content-security-policy"));
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(nonceOf(second.headers.get("content-security-policy"))).not.toBe(nonce);
    // NextResponse.next({ request: { headers } }) hands the rewritten request headers to Next.
    expect(first.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    expect(first.headers.get("x-middleware-request-content-security-policy")).toContain(`'nonce-${nonce}'`);
    expect(first.headers.get("content-security-policy")).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });
});

describe("server-action posts from another site", () => {
  const post = (headers: Record<string, string>, path = "/review/tokens/4d1c") =>
    proxy(new NextRequest(new URL(path, "https://desk.example.bank"), { method: "POST", headers: { host: "desk.example.bank", cookie: "veridesk.session_token=x", ...headers } }));
  const action = { "next-action": "7f3a", "content-type": "text/plain;charset=UTF-8" };

  it("answers 403, not Next's 500, to an action whose Origin is another site's (or null, or not an origin)", async () => {
    for (const origin of ["https://evil.example", "http://desk.example.bank.evil.example", "null", "not an origin", "https://desk.example.bank:8443"]) {
      const response = post({ ...action, origin });
      expect(response.status, origin).toBe(403);
      expect(await response.text()).toBe("This request did not come from Veridesk's own pages.");
      expect(response.headers.get("content-security-policy")).toBeTruthy();
    }
    // A form's own post (multipart or url-encoded, no Next-Action header) is an action to Next too.
    expect(post({ "content-type": "multipart/form-data; boundary=x", origin: "https://evil.example" }).status).toBe(403);
    expect(post({ "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }).status).toBe(403);
  });

  it("lets Veridesk's own pages through, behind a balancer too, and a post without Origin (Next decides as before)", () => {
    const passes = (response: Response) => response.status === 200 && response.headers.get("x-middleware-next") === "1";
    expect(passes(post({ ...action, origin: "https://desk.example.bank" }))).toBe(true);
    expect(passes(post({ ...action, origin: "https://veridesk.bank.example", "x-forwarded-host": "veridesk.bank.example, internal" }))).toBe(true);
    expect(passes(post(action))).toBe(true);
    // Not an action at all: a route handler's POST is the handler's to check.
    expect(passes(post({ "content-type": "application/json", origin: "https://evil.example" }, "/api/review/export-full"))).toBe(true);
  });
});
