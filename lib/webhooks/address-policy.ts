import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * Where a webhook may connect (no SSRF). The address is checked when the connection is made, on
 * the answer of the very lookup the socket then uses, so a name that resolves to a public address
 * when the endpoint is registered and to the metadata service later (DNS rebinding) is refused
 * then, before any connection opens. A literal IP in the URL skips the lookup in Node, so it is
 * checked before the request starts.
 *
 *  - Always refused, whatever the allow-list says: "this network" (0.0.0.0/8, ::), link-local
 *    (169.254/16, fe80::/10, where the cloud metadata services live), the other known metadata
 *    addresses, and IPv4-mapped or -translated IPv6 forms (they would smuggle any IPv4 past the
 *    IPv6 rules).
 *  - Private, loopback, shared and reserved ranges are refused unless WEBHOOK_ALLOWED_CIDRS
 *    holds them (the bank's own subnets).
 *  - Other (public) addresses are allowed.
 */

const ALWAYS_REFUSED: Array<[string, number, "ipv4" | "ipv6"]> = [
  ["0.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"],
  ["100.100.100.200", 32, "ipv4"], // Alibaba Cloud's metadata
  ["168.63.129.16", 32, "ipv4"], // Azure's wire server
  ["255.255.255.255", 32, "ipv4"],
  ["::", 128, "ipv6"],
  ["fe80::", 10, "ipv6"],
  ["fd00:ec2::254", 128, "ipv6"], // AWS's metadata over IPv6
  ["::ffff:0:0", 96, "ipv6"], // IPv4-mapped
  ["::ffff:0:0:0", 96, "ipv6"], // IPv4-translated
  ["64:ff9b::", 96, "ipv6"], // NAT64
  ["64:ff9b:1::", 48, "ipv6"],
];

const NOT_PUBLIC: Array<[string, number, "ipv4" | "ipv6"]> = [
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["127.0.0.0", 8, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.0.0.0", 24, "ipv4"],
  ["192.0.2.0", 24, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["198.18.0.0", 15, "ipv4"],
  ["198.51.100.0", 24, "ipv4"],
  ["203.0.113.0", 24, "ipv4"],
  ["224.0.0.0", 3, "ipv4"], // multicast and reserved
  ["::1", 128, "ipv6"],
  ["fc00::", 7, "ipv6"],
  ["ff00::", 8, "ipv6"],
  ["2001:db8::", 32, "ipv6"],
  ["100::", 64, "ipv6"],
];

type Family = "ipv4" | "ipv6";
/**
 * One list per family: Node's BlockList matches an IPv4 address against IPv6 rules through its
 * mapped form, so a ::ffff:0:0/96 rule in a shared list would refuse every IPv4 address.
 */
type FamilyLists = Record<Family, BlockList>;

function blockListsOf(ranges: Array<[string, number, Family]>): FamilyLists {
  const lists: FamilyLists = { ipv4: new BlockList(), ipv6: new BlockList() };
  for (const [network, prefix, family] of ranges) lists[family].addSubnet(network, prefix, family);
  return lists;
}

const alwaysRefused = blockListsOf(ALWAYS_REFUSED);
const notPublic = blockListsOf(NOT_PUBLIC);
const loopback = blockListsOf([["127.0.0.0", 8, "ipv4"], ["::1", 128, "ipv6"]]);

export type AddressPolicy = {
  allowedCidrs: readonly string[];
  /** Production: loopback is refused even when a wide allow-list range would cover it. */
  refusesLoopback?: boolean;
};

/** The allow-list from the settings: unset means loopback in local and test runs, nothing in production. */
export function addressPolicyFrom(settings: { APP_ENV: string; WEBHOOK_ALLOWED_CIDRS?: string[] | undefined }): AddressPolicy {
  const isProduction = settings.APP_ENV === "production";
  return { allowedCidrs: settings.WEBHOOK_ALLOWED_CIDRS ?? (isProduction ? [] : ["127.0.0.0/8", "::1/128"]), refusesLoopback: isProduction };
}

const allowListCache = new WeakMap<AddressPolicy, FamilyLists>();
function allowListOf(policy: AddressPolicy): FamilyLists {
  let lists = allowListCache.get(policy);
  if (!lists) {
    lists = blockListsOf(
      policy.allowedCidrs.map((entry) => {
        const [network, prefix] = entry.split("/");
        const family: Family = isIP(network!) === 6 ? "ipv6" : "ipv4";
        return [network!, prefix === undefined ? (family === "ipv6" ? 128 : 32) : Number(prefix), family];
      }),
    );
    allowListCache.set(policy, lists);
  }
  return lists;
}

/** Why this address is refused, or null when a webhook may connect to it. */
export function refusalOf(address: string, policy: AddressPolicy): string | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const version = isIP(bare);
  if (version === 0) return `${address} is not an IP address`;
  const family = version === 6 ? "ipv6" : "ipv4";
  if (alwaysRefused[family].check(bare, family)) return `${bare} is never allowed (link-local, metadata, unspecified or IPv4-mapped)`;
  if (policy.refusesLoopback && loopback[family].check(bare, family)) return `${bare} is a loopback address, refused in production`;
  if (notPublic[family].check(bare, family) && !allowListOf(policy)[family].check(bare, family)) {
    return `${bare} is a private or loopback address outside WEBHOOK_ALLOWED_CIDRS`;
  }
  return null;
}

export class RefusedAddressError extends Error {
  readonly code = "WEBHOOK_ADDRESS_REFUSED";
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/**
 * A `lookup` for http(s).request: resolves the name, refuses the whole answer if any address in
 * it is refused (a mixed answer is how rebinding is tried), and hands the socket only checked
 * addresses, so the connection goes nowhere else.
 */
export function checkedLookup(policy: AddressPolicy, resolver: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean; family?: number | string } | number, callback: LookupCallback): void => {
    resolver(hostname).then(
      (addresses) => {
        const wanted = typeof options === "object" && typeof options.family === "number" && options.family !== 0 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
        for (const entry of wanted) {
          const refusal = refusalOf(entry.address, policy);
          if (refusal) return callback(new RefusedAddressError(`${hostname} resolves to ${refusal.replace(/^\S+ /, entry.address + " ")}`), "", 0);
        }
        if (typeof options === "object" && options.all) return callback(null, wanted);
        return callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}
