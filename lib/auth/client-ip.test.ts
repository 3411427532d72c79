import { describe, expect, it } from "vitest";
import { isValidCidr, resolveClientIp, type TrustedProxySettings } from "./client-ip";

const forwarded = (value: string, header = "x-forwarded-for") => new Headers({ [header]: value });
const plain: TrustedProxySettings = { CLIENT_IP_HEADER: "x-forwarded-for" };

describe("resolveClientIp", () => {
  it("ignores the header entirely without a trusted-proxy setting", () => {
    expect(resolveClientIp(forwarded("203.0.113.7"), plain)).toBeNull();
    expect(resolveClientIp(forwarded("203.0.113.7, 10.0.0.2"), plain)).toBeNull();
  });

  describe("with a hop count", () => {
    const oneHop = { ...plain, TRUSTED_PROXY_HOPS: 1 };

    it("takes the address the balancer appended, whatever the client put in front", () => {
      expect(resolveClientIp(forwarded("203.0.113.7"), oneHop)).toBe("203.0.113.7");
      // A client rotating its own header only changes the untrusted part on the left.
      expect(resolveClientIp(forwarded("1.2.3.4, 203.0.113.7"), oneHop)).toBe("203.0.113.7");
      expect(resolveClientIp(forwarded("9.9.9.9, 8.8.8.8, 203.0.113.7"), oneHop)).toBe("203.0.113.7");
    });

    it("counts several hops from the right", () => {
      const twoHops = { ...plain, TRUSTED_PROXY_HOPS: 2 };
      expect(resolveClientIp(forwarded("6.6.6.6, 203.0.113.7, 10.0.0.2"), twoHops)).toBe("203.0.113.7");
      expect(resolveClientIp(forwarded("203.0.113.7"), twoHops)).toBeNull();
    });

    it("answers null, never a shared value, for a missing or invalid address", () => {
      expect(resolveClientIp(new Headers(), oneHop)).toBeNull();
      expect(resolveClientIp(forwarded("1.2.3.4, not-an-ip"), oneHop)).toBeNull();
      expect(resolveClientIp(forwarded("1.2.3.4, "), oneHop)).toBeNull();
    });

    it("reads the configured header only, and normalises IPv6", () => {
      const realIp = { CLIENT_IP_HEADER: "x-real-ip", TRUSTED_PROXY_HOPS: 1 };
      expect(resolveClientIp(forwarded("203.0.113.7"), realIp)).toBeNull();
      expect(resolveClientIp(forwarded("2001:DB8::1", "x-real-ip"), realIp)).toBe("2001:db8::1");
      expect(resolveClientIp(forwarded("::ffff:203.0.113.7", "x-real-ip"), realIp)).toBe("203.0.113.7");
    });
  });

  describe("with the balancers' networks", () => {
    const balancers = { ...plain, TRUSTED_PROXY_CIDRS: ["10.0.0.0/8", "2001:db8:ffff::/48"] };

    it("skips trusted hops from the right and takes the first untrusted one", () => {
      expect(resolveClientIp(forwarded("203.0.113.7, 10.1.2.3"), balancers)).toBe("203.0.113.7");
      expect(resolveClientIp(forwarded("6.6.6.6, 203.0.113.7, 10.9.9.9, 10.1.2.3"), balancers)).toBe("203.0.113.7");
      expect(resolveClientIp(forwarded("198.51.100.1, 2001:db8:ffff::9"), balancers)).toBe("198.51.100.1");
    });

    it("answers null when every hop is a balancer or one is not an address", () => {
      expect(resolveClientIp(forwarded("10.0.0.1, 10.0.0.2"), balancers)).toBeNull();
      expect(resolveClientIp(forwarded("203.0.113.7, junk, 10.0.0.1"), balancers)).toBeNull();
    });
  });
});

describe("isValidCidr", () => {
  it.each([
    ["10.0.0.0/8", true],
    ["10.0.0.1", true],
    ["2001:db8::/32", true],
    ["10.0.0.0/33", false],
    ["10.0.0.0/x", false],
    ["example.com", false],
    ["", false],
  ])("%j → %s", (value, expected) => {
    expect(isValidCidr(value)).toBe(expected);
  });
});
