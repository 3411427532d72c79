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
