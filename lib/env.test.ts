import { describe, expect, it } from "vitest";
import { LOCAL_AUTH_SECRET, SANDBOX_API_KEY, parseEnv } from "./env";

describe("parseEnv", () => {
  it("gives the embedded local run working defaults", () => {
    const settings = parseEnv({});
    expect(settings.APP_ENV).toBe("local");
    expect(settings.DATABASE_URL).toBeUndefined();
    expect(settings.UPSTREAM_BASE_URL).toBe("http://127.0.0.1:4010");
    expect(settings.UPSTREAM_API_KEY).toBe(SANDBOX_API_KEY);
    expect(settings.SESSION_IDLE_MINUTES).toBe(30);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ PORT: "" }).PORT).toBe(3000);
  });

  it("names every bad variable in one message", () => {
    const attempt = () => parseEnv({ PORT: "abc", UPSTREAM_BASE_URL: "not a url", DATABASE_URL: "mysql://x" });
    expect(attempt).toThrow(/PORT/);
    expect(attempt).toThrow(/UPSTREAM_BASE_URL/);
    expect(attempt).toThrow(/DATABASE_URL/);
  });

  it("refuses to start production with any default secret", () => {
    const attempt = () => parseEnv({ APP_ENV: "production" });
    expect(attempt).toThrow(/AUTH_SECRET/);
    expect(attempt).toThrow(/UPSTREAM_API_KEY/);
    expect(attempt).toThrow(/DATABASE_URL/);
    expect(attempt).toThrow(/APP_URL/);
    expect(attempt).toThrow(/PII_ENCRYPTION_KEY/);
    expect(attempt).toThrow(/PII_INDEX_KEY/);
  });

  const production = {
    APP_ENV: "production",
    DATABASE_URL: "postgres://veridesk@db.internal/veridesk",
    AUTH_SECRET: "Zq3v8Jk1pW0xR7mT2bN9cY5hL4sD6fGa",
    UPSTREAM_API_KEY: "cHVibGljOnNlY3JldA==",
    UPSTREAM_BASE_URL: "https://verify.example.com",
    APP_URL: "https://desk.example.com",
    PII_ENCRYPTION_KEY: "3f1c9a7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a",
    PII_INDEX_KEY: "qEJI4lmwSOg0Mja1G9VJHDH0mE9Tx5/HyYeNEweczjg=",
  };

  it("refuses identity retention under the AML minimum in production unless RETENTION_ALLOW_SHORT=1 (ADR 0022)", () => {
    expect(parseEnv(production).RETENTION_IDENTITY_YEARS).toBe(5);
    expect(parseEnv(production).RETENTION_CONTACT_DAYS).toBe(90);
    for (const years of ["1", "4"]) {
      expect(() => parseEnv({ ...production, RETENTION_IDENTITY_YEARS: years })).toThrow(/RETENTION_IDENTITY_YEARS: must be at least 5 in production/);
    }
    expect(parseEnv({ ...production, RETENTION_IDENTITY_YEARS: "3", RETENTION_ALLOW_SHORT: "1" }).RETENTION_IDENTITY_YEARS).toBe(3);
    expect(parseEnv({ ...production, RETENTION_IDENTITY_YEARS: "7" }).RETENTION_IDENTITY_YEARS).toBe(7);
    // Outside production a short setting is allowed (tests, demos).
    expect(parseEnv({ RETENTION_IDENTITY_YEARS: "1" }).RETENTION_IDENTITY_YEARS).toBe(1);
    expect(() => parseEnv({ RETENTION_CONTACT_DAYS: "0" })).toThrow(/RETENTION_CONTACT_DAYS/);
  });

  it("accepts production with its own secrets", () => {
    const settings = parseEnv(production);
    expect(settings.AUTH_SECRET).not.toBe(LOCAL_AUTH_SECRET);
  });

  it.each([
    ["APP_URL", { APP_URL: "http://desk.example.com" }, /APP_URL: must be an https/],
    ["UPSTREAM_BASE_URL", { UPSTREAM_BASE_URL: "http://verify.example.com" }, /UPSTREAM_BASE_URL: must be an https/],
    ["AUTH_SECRET of one repeated character", { AUTH_SECRET: "x".repeat(40) }, /AUTH_SECRET: is too guessable/],
    ["AUTH_SECRET of a short pattern", { AUTH_SECRET: "abcd".repeat(12) }, /AUTH_SECRET: is too guessable/],
    ["equal PII keys", { PII_INDEX_KEY: production.PII_ENCRYPTION_KEY }, /PII_INDEX_KEY: must be a different key/],
    ["an all-zero PII key", { PII_ENCRYPTION_KEY: "0".repeat(64) }, /PII_ENCRYPTION_KEY: must be random bytes/],
    ["an all-zero base64 PII key", { PII_INDEX_KEY: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" }, /PII_INDEX_KEY: must be random bytes/],
    ["a PII key with surrounding spaces", { PII_INDEX_KEY: ` ${production.PII_INDEX_KEY} ` }, /PII_INDEX_KEY: must not start or end/],
    ["the bench-only ceiling route", { BENCH_CEILING_ROUTE: "true" }, /BENCH_CEILING_ROUTE: is for benchmarks only/],
    ["an API key with a trailing newline", { UPSTREAM_API_KEY: "cHVibGljOnNlY3JldA==\n" }, /UPSTREAM_API_KEY: must not start or end/],
    ["an AUTH_SECRET with a leading space", { AUTH_SECRET: ` ${production.AUTH_SECRET}` }, /AUTH_SECRET: must not start or end/],
  ])("refuses production with %s", (_, override, message) => {
    expect(() => parseEnv({ ...production, ...override })).toThrow(message);
  });

  it("accepts the keys openssl prints", () => {
    expect(() =>
      parseEnv({ ...production, AUTH_SECRET: "9e107d9d372bb6826bd81d3542a419d6e277d4d731479571562b82f74494341f" }),
    ).not.toThrow();
  });

  it("reads the trusted-proxy setting, one kind at a time", () => {
    expect(parseEnv({}).TRUSTED_PROXY_HOPS).toBeUndefined();
    expect(parseEnv({ TRUSTED_PROXY_HOPS: "1" }).TRUSTED_PROXY_HOPS).toBe(1);
    expect(parseEnv({ TRUSTED_PROXY_CIDRS: "10.0.0.0/8, 192.168.4.2" }).TRUSTED_PROXY_CIDRS).toEqual(["10.0.0.0/8", "192.168.4.2"]);
    expect(parseEnv({ CLIENT_IP_HEADER: "X-Real-IP" }).CLIENT_IP_HEADER).toBe("x-real-ip");
    expect(() => parseEnv({ TRUSTED_PROXY_CIDRS: "10.0.0.0/8,everyone" })).toThrow(/TRUSTED_PROXY_CIDRS/);
    expect(() => parseEnv({ TRUSTED_PROXY_HOPS: "0" })).toThrow(/TRUSTED_PROXY_HOPS/);
    expect(() => parseEnv({ TRUSTED_PROXY_HOPS: "1", TRUSTED_PROXY_CIDRS: "10.0.0.1" })).toThrow(/either/);
  });
});
