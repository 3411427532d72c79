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
  it("adds HSTS in production, to pages, routes and redirects", async () => {
    process.env.APP_ENV = "production";
    for (const response of await Promise.all([get("/review"), get("/api/tokens"), proxy(new NextRequest("https://desk.example.bank/admin/audit"))])) {
      expect(response.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    }
  });

  it("adds no HSTS outside production (a local run is plain http)", async () => {
    process.env.APP_ENV = "local";
    expect((await get("/review")).headers.get("strict-transport-security")).toBeNull();
  });

  it("gives each page request its own nonce, in the answer and in the request Next renders", async () => {
    const first = await get("/review");
    const second = await get("/review");
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
    proxy(new NextRequest(new URL(path, "https://desk.example.bank"), { method: "POST", body: "[]", headers: { host: "desk.example.bank", cookie: "veridesk.session_token=x", ...headers } }));
  const action = { "next-action": "7f3a", "content-type": "text/plain;charset=UTF-8" };

  it("answers 403, not Next's 500, to an action whose Origin is another site's (or null, or not an origin)", async () => {
    for (const origin of ["https://evil.example", "http://desk.example.bank.evil.example", "null", "not an origin", "https://desk.example.bank:8443"]) {
      const response = await post({ ...action, origin });
      expect(response.status, origin).toBe(403);
      expect(await response.text()).toBe("This request did not come from Veridesk's own pages.");
      expect(response.headers.get("content-security-policy")).toBeTruthy();
    }
    // A form's own post (multipart or url-encoded, no Next-Action header) is an action to Next too.
    expect((await post({ "content-type": "multipart/form-data; boundary=x", origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" })).status).toBe(403);
  });

  it("lets Veridesk's own pages through, behind a balancer too, and a post without Origin (Next decides as before)", async () => {
    const passes = async (response: Promise<Response>) => {
      const answer = await response;
      return answer.status === 200 && answer.headers.get("x-middleware-next") === "1";
    };
    expect(await passes(post({ ...action, origin: "https://desk.example.bank" }))).toBe(true);
    expect(await passes(post({ ...action, origin: "https://veridesk.bank.example", "x-forwarded-host": "veridesk.bank.example, internal" }))).toBe(true);
    expect(await passes(post(action))).toBe(true);
    // Not an action at all: a route handler's POST is the handler's to check.
    expect(await passes(post({ "content-type": "application/json", origin: "https://evil.example" }, "/api/review/export-full"))).toBe(true);
  });
});

describe("server-action posts whose body React's decoder cannot read", () => {
  const origin = "https://desk.example.bank";
  const post = (body: BodyInit, headers: Record<string, string> = { "next-action": "7f3a", "content-type": "text/plain;charset=UTF-8" }) =>
    proxy(new NextRequest(new URL("/review", origin), { method: "POST", body, headers: { host: "desk.example.bank", origin, ...headers } }));
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    return data;
  };

  it("answers 400 to a `$` reference the body does not hold, in text and in multipart, and to a body that is not JSON", async () => {
    for (const body of ['["$(id)"]', '["${7*7}"]', '["$Q1"]', '[{"a":{"b":["$1"]}}]', "[zxc]", ""]) {
      const response = await post(body);
      expect(response.status, body).toBe(400);
      expect(await response.text()).toBe("This request is not one Veridesk's pages send.");
      expect(response.headers.get("content-security-policy")).toBeTruthy();
    }
    expect((await post(form({ 0: '["$Q1"]' }), { "next-action": "7f3a" })).status).toBe(400);
    expect((await post(form({ "1_x": "$Q1" }), { "next-action": "7f3a" })).status).toBe(400);
  });

  it("answers 400 to a form post without JavaScript whose bound arguments point nowhere, and lets a plain one through", async () => {
    expect((await post(form({ $ACTION_REF_1: "", "$ACTION_1:0": '{"id":"7f3a","bound":"$@1"}' }), {})).status).toBe(400);
    expect((await post(form({ $ACTION_REF_1: "", "$ACTION_1:0": '{"id":"7f3a","bound":"$@1"}', "$ACTION_1:1": '["x"]' }), {})).status).toBe(200);
    expect((await post(form({ $ACTION_ID_7f3a: "", note: "$Q1" }), {})).status).toBe(200);
  });

  it("answers 413 to a body over Next's limit for actions", async () => {
    expect((await post(`["${"x".repeat(1024 * 1024)}"]`)).status).toBe(413);
  });

  it("lets through what React's client sends: escaped `$`, undefined, a FormData argument, a repeated object", async () => {
    for (const body of ['[{"note":"$$Q1"}]', '["$undefined",{"a":1}]', '[{"a":[1]},"$0:0:a"]']) expect((await post(body)).status, body).toBe(200);
    expect((await post(form({ 0: '["$undefined","$K1"]', _1_code: "$Q1" }), { "next-action": "7f3a" })).status).toBe(200);
  });
});
