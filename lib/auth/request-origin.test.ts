import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * The exports' origin check (ADR 0018): a cross-site page cannot make a
 * signed-in browser run an export, and without APP_URL the check compares against the origin the
 * request was addressed to, never a guessed http://localhost:PORT.
 */

async function load(appUrl: string | undefined) {
  vi.resetModules();
  if (appUrl === undefined) vi.stubEnv("APP_URL", "");
  else vi.stubEnv("APP_URL", appUrl);
  if (appUrl === undefined) delete process.env.APP_URL;
  return import("./request-origin");
}

const request = (url: string, headers: Record<string, string>, method = "GET") => new Request(url, { method, headers });

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("isOwnOriginRequest", () => {
  it("refuses a cross-site or same-site navigation and another Origin", async () => {
    const { isOwnOriginRequest } = await load("https://veridesk.bank.example");
    expect(isOwnOriginRequest(request("https://veridesk.bank.example/api/review/export", { "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isOwnOriginRequest(request("https://veridesk.bank.example/api/review/export", { "sec-fetch-site": "same-site" }))).toBe(false);
    expect(isOwnOriginRequest(request("https://veridesk.bank.example/x", { origin: "https://evil.example" }, "POST"))).toBe(false);
  });

  it("accepts the app's own pages and a navigation the user typed", async () => {
    const { isOwnOriginRequest } = await load("https://veridesk.bank.example");
    expect(isOwnOriginRequest(request("https://veridesk.bank.example/x", { "sec-fetch-site": "same-origin", origin: "https://veridesk.bank.example" }, "POST"))).toBe(true);
    expect(isOwnOriginRequest(request("https://veridesk.bank.example/x", { "sec-fetch-site": "none" }))).toBe(true);
  });

  it("a POST with no browser proof at all is refused where proof is required; Origin: null decides nothing", async () => {
    const { isOwnOriginRequest } = await load("https://veridesk.bank.example");
    expect(isOwnOriginRequest(request("https://veridesk.bank.example/x", {}, "POST"), { requiresBrowserProof: true })).toBe(false);
    expect(isOwnOriginRequest(request("https://veridesk.bank.example/x", { origin: "null" }, "POST"), { requiresBrowserProof: true })).toBe(false);
    expect(isOwnOriginRequest(request("https://veridesk.bank.example/x", { origin: "null", "sec-fetch-site": "same-origin" }, "POST"), { requiresBrowserProof: true })).toBe(true);
  });

  it("without APP_URL, compares with the origin the request was addressed to (not localhost:PORT)", async () => {
    const { isOwnOriginRequest } = await load(undefined);
    expect(isOwnOriginRequest(request("http://10.0.0.5:3000/api/review/export-full", { origin: "http://10.0.0.5:3000", "sec-fetch-site": "same-origin" }, "POST"))).toBe(true);
    expect(isOwnOriginRequest(request("http://10.0.0.5:3000/api/review/export-full", { origin: "http://localhost:3000" }, "POST"))).toBe(false);
  });
});

describe("isOwnSiteNavigation", () => {
  it("takes Veridesk's own links and fetches, the address bar and clients that say nothing; not another site's link", async () => {
    const { isOwnSiteNavigation } = await load("https://veridesk.bank.example");
    const headers = (fetchSite?: string) => new Headers(fetchSite ? { "sec-fetch-site": fetchSite } : {});
    expect(isOwnSiteNavigation(headers("same-origin"))).toBe(true);
    expect(isOwnSiteNavigation(headers("none"))).toBe(true);
    expect(isOwnSiteNavigation(headers())).toBe(true);
    expect(isOwnSiteNavigation(headers("cross-site"))).toBe(false);
    expect(isOwnSiteNavigation(headers("same-site"))).toBe(false);
  });
});
