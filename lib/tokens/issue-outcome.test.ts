import { describe, expect, it } from "vitest";
import { AppError, errorCatalog } from "@/lib/errors";
import { definitelyNotIssuedCodes, outcomeUnknownCodes } from "./display";
import { newIdempotencyKey } from "./idempotency-key";
import { outcomeOfFailure, presentedCode, userMessageForFailure } from "./issue-outcome";
import { expiryOf, TOKEN_LIFETIME_MS } from "./lifetime";

describe("outcomeOfFailure", () => {
  it.each([
    ["UPSTREAM_TIMEOUT", "x", "outcome_unknown"],
    ["UPSTREAM_MALFORMED", "x", "outcome_unknown"],
    ["UPSTREAM_BAD_RESPONSE", "x", "outcome_unknown"],
    ["INTERNAL", "x", "outcome_unknown"],
    ["UPSTREAM_REJECTED", "x", "rejected"],
    ["UPSTREAM_SERVER_ERROR", "x", "failed_upstream"],
    ["UPSTREAM_UNAUTHORIZED", "x", "failed_upstream"],
    ["UPSTREAM_NETWORK", "POST x failed before an answer: fetch failed (ECONNREFUSED)", "failed_upstream"],
    ["UPSTREAM_NETWORK", "POST x failed before an answer: getaddrinfo ENOTFOUND host", "failed_upstream"],
    ["UPSTREAM_NETWORK", "POST x failed before an answer: other side closed (UND_ERR_SOCKET)", "outcome_unknown"],
  ] as const)("%s (%s) → %s", (code, message, outcome) => {
    expect(outcomeOfFailure(new AppError(code, message))).toBe(outcome);
  });
});

describe("what the teller is told", () => {
  it("turns a broken connection into its own code and copy", () => {
    expect(presentedCode("UPSTREAM_NETWORK", "outcome_unknown")).toBe("UPSTREAM_CONNECTION_LOST");
    expect(presentedCode("UPSTREAM_NETWORK", "failed_upstream")).toBe("UPSTREAM_NETWORK");
    expect(userMessageForFailure("UPSTREAM_NETWORK", "outcome_unknown")).toMatch(/may or may not exist/);
    expect(userMessageForFailure("UPSTREAM_TIMEOUT", "outcome_unknown")).toBe(errorCatalog.UPSTREAM_TIMEOUT.userMessage);
  });

  it("keeps the form's key for every code after which a token may exist, and only those", () => {
    for (const code of definitelyNotIssuedCodes) {
      expect(outcomeUnknownCodes.has(code)).toBe(false);
      expect(outcomeOfFailure(new AppError(code, "fetch failed (ECONNREFUSED)"))).not.toBe("outcome_unknown");
    }
    for (const code of ["UPSTREAM_TIMEOUT", "UPSTREAM_MALFORMED", "UPSTREAM_BAD_RESPONSE"] as const) {
      expect(outcomeUnknownCodes.has(code)).toBe(true);
    }
    // A timeout's failure links to its attempt, which takes the token from the customer's SMS.
    expect(errorCatalog.UPSTREAM_TIMEOUT.userMessage).toMatch(/open this attempt/);
    for (const code of ["UPSTREAM_MALFORMED", "UPSTREAM_BAD_RESPONSE"] as const) expect(errorCatalog[code].userMessage).toMatch(/check the token list/);
    expect(errorCatalog.UPSTREAM_CONNECTION_LOST.userMessage).toMatch(/check the token list/);
  });
});

describe("idempotency keys and lifetime", () => {
  it("makes distinct UUID v4 keys without crypto.randomUUID", () => {
    const keys = new Set(Array.from({ length: 200 }, newIdempotencyKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("expires 15 minutes after issue", () => {
    expect(TOKEN_LIFETIME_MS).toBe(900_000);
    expect(expiryOf(new Date("2026-11-22T10:00:00Z")).toISOString()).toBe("2026-11-22T10:15:00.000Z");
  });
});
