import { describe, expect, it } from "vitest";
import { AddressThrottle } from "./address-throttle";

const policy = { maxUsernames: 3, windowMs: 15 * 60_000, maxAddresses: 2 };
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 26, 9, minutes));

describe("the per-address limit on password spraying", () => {
  it("checks at most the limit of different usernames per address in the window, then refuses until the oldest leaves it", () => {
    const throttle = new AddressThrottle(policy);
    expect(["a", "b", "c"].map((username) => throttle.claim("203.0.113.7", username, at(0)).isAllowed)).toEqual([true, true, true]);
    expect(throttle.claim("203.0.113.7", "d", at(1))).toEqual({ isAllowed: false, retryAt: at(15) });
    // The same usernames again are no spraying (their own lock-out counts those).
    expect(throttle.claim("203.0.113.7", "a", at(2)).isAllowed).toBe(true);
    // Another address has its own window.
    expect(throttle.claim("198.51.100.4", "d", at(2)).isAllowed).toBe(true);
    // b and c claimed at 0 leave the window at 15; a was claimed again at 2.
    expect(throttle.claim("203.0.113.7", "d", at(15)).isAllowed).toBe(true);
    expect(throttle.claim("203.0.113.7", "e", at(15)).isAllowed).toBe(true);
    expect(throttle.claim("203.0.113.7", "f", at(15)).isAllowed).toBe(false);
  });

  it("gives a username's place back when its password was right", () => {
    const throttle = new AddressThrottle(policy);
    for (const username of ["a", "b", "c"]) throttle.claim("203.0.113.7", username, at(0));
    throttle.release("203.0.113.7", "b");
    expect(throttle.claim("203.0.113.7", "d", at(1)).isAllowed).toBe(true);
    expect(throttle.claim("203.0.113.7", "e", at(1)).isAllowed).toBe(false);
  });

  it("counts a burst as it is claimed: 45 usernames at once get 3 checks", () => {
    const throttle = new AddressThrottle(policy);
    const answers = Array.from({ length: 45 }, (_, index) => throttle.claim("203.0.113.7", `user.${index}`, at(0)));
    expect(answers.filter((answer) => answer.isAllowed)).toHaveLength(3);
  });

  it("keeps a bounded number of addresses, dropping the least recently claimed", () => {
    const throttle = new AddressThrottle(policy);
    throttle.claim("10.0.0.1", "a", at(0));
    throttle.claim("10.0.0.2", "a", at(0));
    throttle.claim("10.0.0.1", "b", at(1));
    throttle.claim("10.0.0.3", "a", at(2));
    expect(throttle.addressCount).toBe(2);
    // 10.0.0.2 was dropped; 10.0.0.1 (claimed more recently) still has its two usernames.
    for (const username of ["c"]) throttle.claim("10.0.0.1", username, at(3));
    expect(throttle.claim("10.0.0.1", "d", at(3)).isAllowed).toBe(false);
  });
});
