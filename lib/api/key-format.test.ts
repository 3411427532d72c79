import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, hintOf, parseApiKey } from "./key-format";
import { requestHashOf, tokenIdempotencyKeyOf } from "./idempotency";

describe("API key format", () => {
  it("makes keys that parse, with their environment, and are all different", () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey("live"));
    for (const key of keys) {
      expect(key).toMatch(/^vdk_live_[0-9A-Za-z]{46}$/);
      expect(parseApiKey(key)).toEqual({ environment: "live" });
    }
    expect(new Set(keys).size).toBe(keys.length);
    expect(parseApiKey(generateApiKey("test"))).toEqual({ environment: "test" });
  });

  it("refuses every single-character typo, a truncation and another prefix by the checksum alone", () => {
    const key = generateApiKey("live");
    for (let i = 9; i < key.length; i++) {
      const replacement = key[i] === "x" ? "y" : "x";
      expect(parseApiKey(`${key.slice(0, i)}${replacement}${key.slice(i + 1)}`), `position ${i}`).toBeNull();
    }
    expect(parseApiKey(key.slice(0, -1))).toBeNull();
    expect(parseApiKey(key.replace("vdk_live_", "vdk_test_"))).toBeNull();
    expect(parseApiKey(` ${key}`)).toBeNull();
  });

  it("stores a SHA-256 and shows a hint that is not the key", () => {
    const key = generateApiKey("live");
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hintOf(key)).toBe(`${key.slice(0, 13)}…${key.slice(-4)}`);
  });
});

describe("idempotency fingerprints", () => {
  it("ignores key order, not values", () => {
    expect(requestHashOf("POST", "/x", { a: 1, b: [1, { c: 2, d: 3 }] })).toBe(requestHashOf("POST", "/x", { b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(requestHashOf("POST", "/x", { a: 1 })).not.toBe(requestHashOf("POST", "/x", { a: 2 }));
  });

  it("derives one uuid per integration and key", () => {
    const a = tokenIdempotencyKeyOf("user-1", "order-1");
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tokenIdempotencyKeyOf("user-1", "order-1")).toBe(a);
    expect(tokenIdempotencyKeyOf("user-2", "order-1")).not.toBe(a);
  });
});
