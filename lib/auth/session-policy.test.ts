import { describe, expect, it } from "vitest";
import { safeNextPath, sessionStanding, shouldRecordActivity } from "./session-policy";

const signedInAt = new Date("2026-11-22T08:00:00Z");
const minutes = (n: number) => new Date(signedInAt.getTime() + n * 60_000);
const limits = { idleMinutes: 30, maxHours: 12 };

describe("sessionStanding", () => {
  it("is active within both limits and says when each ends", () => {
    const standing = sessionStanding({ createdAt: signedInAt, lastActiveAt: minutes(10) }, limits, minutes(20));
    expect(standing).toEqual({ isActive: true, idleExpiresAt: minutes(40), absoluteExpiresAt: minutes(12 * 60) });
  });

  it("ends after 30 idle minutes", () => {
    const standing = sessionStanding({ createdAt: signedInAt, lastActiveAt: minutes(10) }, limits, minutes(40));
    expect(standing).toMatchObject({ isActive: false, reason: "idle" });
  });

  it("ends after 12 hours however active", () => {
    const standing = sessionStanding({ createdAt: signedInAt, lastActiveAt: minutes(12 * 60 - 1) }, limits, minutes(12 * 60));
    expect(standing).toMatchObject({ isActive: false, reason: "absolute" });
  });

  it("follows the configured limits", () => {
    const standing = sessionStanding({ createdAt: signedInAt, lastActiveAt: signedInAt }, { idleMinutes: 5, maxHours: 1 }, minutes(5));
    expect(standing).toMatchObject({ isActive: false, reason: "idle" });
  });
});

describe("shouldRecordActivity", () => {
  it("writes the activity time at most every 30 seconds", () => {
    expect(shouldRecordActivity(signedInAt, new Date(signedInAt.getTime() + 29_000))).toBe(false);
    expect(shouldRecordActivity(signedInAt, new Date(signedInAt.getTime() + 30_000))).toBe(true);
  });
});

describe("safeNextPath", () => {
  it.each([
    ["/admin/staff?page=2", "/admin/staff?page=2"],
    ["/", "/"],
    [undefined, "/"],
    ["", "/"],
    ["https://evil.example/", "/"],
    ["//evil.example/", "/"],
    ["/\\evil.example", "/"],
    ["/sign-in?next=/", "/"],
    ["/api/auth/session", "/"],
    // Tabs and newlines are dropped by the browser's URL parser: these are other hosts.
    ["/\t/evil.example/x", "/"],
    ["/\n/evil.example/x", "/"],
    ["/\r/evil.example/x", "/"],
    [decodeURIComponent("/%09/evil.example/x"), "/"],
    ["/\t\\evil.example", "/"],
    ["/.//evil.example/x", "/"],
    ["/%2e//evil.example", "/"],
    ["\t/evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["/sign-in/../sign-in", "/"],
    ["/tokens/../api/tokens", "/"],
    // Harmless paths come back as the browser would resolve them.
    ["/tokens/./new", "/tokens/new"],
    ["/review?from=2026-11-01#list", "/review?from=2026-11-01#list"],
  ])("turns %j into %j", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});
