import { describe, expect, it } from "vitest";
import { addressBucketOf, isValidCidr, PEER_ADDRESS_HEADER, peerAddressProof, resolveClientIp, type TrustedProxySettings } from "./client-ip";

// As lib/server/peer-address.ts does at boot: the process's proof of a stamped peer header.
const proof = peerAddressProof(() => "proof-of-this-process")!;
const fromPeer = (peer: string, extra: Record<string, string> = {}) => new Headers({ [PEER_ADDRESS_HEADER]: `${proof};${peer}`, ...extra });

const forwarded = (value: string, header = "x-forwarded-for") => new Headers({ [header]: value });
const plain: TrustedProxySettings = { CLIENT_IP_HEADER: "x-forwarded-for" };

describe("resolveClientIp", () => {
  it("ignores the header entirely without a trusted-proxy setting", () => {
    expect(resolveClientIp(forwarded("203.0.113.7"), plain)).toBeNull();
    expect(resolveClientIp(forwarded("203.0.113.7, 10.0.0.2"), plain)).toBeNull();
  });

  describe("served directly (no trusted proxy)", () => {
    it("is the connection's own address, whatever X-Forwarded-For says", () => {
      expect(resolveClientIp(fromPeer("198.51.100.23"), plain)).toBe("198.51.100.23");
      expect(resolveClientIp(fromPeer("198.51.100.23", { "x-forwarded-for": "6.6.6.6" }), plain)).toBe("198.51.100.23");
      expect(resolveClientIp(fromPeer("::ffff:198.51.100.23"), plain)).toBe("198.51.100.23");
    });

    it("takes no peer header the process did not stamp: a client's own is nobody's", () => {
      expect(resolveClientIp(new Headers({ [PEER_ADDRESS_HEADER]: "6.6.6.6" }), plain)).toBeNull();
      expect(resolveClientIp(new Headers({ [PEER_ADDRESS_HEADER]: `guessed;6.6.6.6` }), plain)).toBeNull();
      expect(resolveClientIp(new Headers({ [PEER_ADDRESS_HEADER]: `${proof};not-an-address` }), plain)).toBeNull();
    });
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

    it("reads the forwarded address only from a balancer's connection; a request straight to the app is its own client", () => {
      expect(resolveClientIp(fromPeer("10.1.2.3", { "x-forwarded-for": "203.0.113.7" }), balancers)).toBe("203.0.113.7");
      expect(resolveClientIp(fromPeer("198.51.100.23", { "x-forwarded-for": "203.0.113.7, 10.1.2.3" }), balancers)).toBe("198.51.100.23");
      expect(resolveClientIp(fromPeer("198.51.100.23"), balancers)).toBe("198.51.100.23");
    });
  });
});

describe("addressBucketOf", () => {
  it("is an IPv4 address itself and an IPv6 address's /64", () => {
    expect(addressBucketOf("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucketOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucketOf("2001:db8:1:2:ffff:ffff:ffff:fffe")).toBe("2001:db8:1:2::/64");
    expect(addressBucketOf("::1")).toBe("0:0:0:0::/64");
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
