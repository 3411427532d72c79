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

  it("accepts production with its own secrets", () => {
    const settings = parseEnv({
      APP_ENV: "production",
      DATABASE_URL: "postgres://veridesk@db.internal/veridesk",
      AUTH_SECRET: "x".repeat(40),
      UPSTREAM_API_KEY: "cHVibGljOnNlY3JldA==",
      UPSTREAM_BASE_URL: "https://verify.example.com",
      APP_URL: "https://desk.example.com",
      PII_ENCRYPTION_KEY: "a".repeat(64),
      PII_INDEX_KEY: "b".repeat(64),
    });
    expect(settings.AUTH_SECRET).not.toBe(LOCAL_AUTH_SECRET);
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
