import { describe, expect, it } from "vitest";
import { computeBackoffDelay, defaultRetryPolicy, isTransientFailure } from "./retry";

describe("computeBackoffDelay", () => {
  it.each([
    [1, 100, 200],
    [2, 200, 400],
    [3, 400, 800],
    [4, 400, 800],
  ])("after attempt %i waits between %i and %i ms", (failedAttempt, lowest, highest) => {
    expect(computeBackoffDelay(failedAttempt, defaultRetryPolicy, () => 0)).toBe(lowest);
    expect(computeBackoffDelay(failedAttempt, defaultRetryPolicy, () => 1)).toBe(highest);
  });
});

describe("isTransientFailure", () => {
  it("retries only failures that may pass on their own", () => {
    expect(["UPSTREAM_NETWORK", "UPSTREAM_TIMEOUT", "UPSTREAM_SERVER_ERROR", "UPSTREAM_MALFORMED"].every((code) =>
      isTransientFailure(code as Parameters<typeof isTransientFailure>[0]),
    )).toBe(true);
    expect(isTransientFailure("UPSTREAM_UNAUTHORIZED")).toBe(false);
    expect(isTransientFailure("UPSTREAM_REJECTED")).toBe(false);
    expect(isTransientFailure("UPSTREAM_BAD_RESPONSE")).toBe(false);
  });
});
