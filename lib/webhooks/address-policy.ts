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
 *    addresses, and every IPv6 form that carries an IPv4 address inside it: mapped, translated,
 *    IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16), Teredo
 *    (2001::/32) and ISATAP interface ids (…:0:5efe:a.b.c.d). All of them, not only those whose
 *    IPv4 is private: a host with a tunnel, a relay or a translator on its path hands the packet
 *    to the embedded IPv4, so each form would smuggle an IPv4 past the IPv4 rules, and decoding
 *    each one (Teredo's is inverted, ISATAP's sits in the interface id) to judge the IPv4 is more
 *    code to get wrong than the forms are worth: every one is deprecated or a transition
 *    mechanism, and no bank receiver is reached only through one.
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
];

/** The IPv6 prefixes whose addresses carry an IPv4 address (the ISATAP interface id is checked apart). */
const EMBEDS_IPV4: Array<[string, number, "ipv4" | "ipv6"]> = [
  ["::", 96, "ipv6"], // IPv4-compatible, ::a.b.c.d (:: and ::1 are judged as themselves)
  ["::ffff:0:0", 96, "ipv6"], // IPv4-mapped
  ["::ffff:0:0:0", 96, "ipv6"], // IPv4-translated
  ["64:ff9b::", 96, "ipv6"], // NAT64
  ["64:ff9b:1::", 48, "ipv6"], // NAT64, local use
  ["2002::", 16, "ipv6"], // 6to4
  ["2001::", 32, "ipv6"], // Teredo
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
const embedsIpv4 = blockListsOf(EMBEDS_IPV4);
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
  if (alwaysRefused[family].check(bare, family)) return `${bare} is never allowed (link-local, metadata or unspecified)`;
  if (family === "ipv6" && !loopback.ipv6.check(bare, "ipv6") && (embedsIpv4.ipv6.check(bare, "ipv6") || hasIsatapInterfaceId(bare))) {
    return `${bare} is never allowed (an IPv6 form that carries an IPv4 address)`;
  }
  if (policy.refusesLoopback && loopback[family].check(bare, family)) return `${bare} is a loopback address, refused in production`;
  if (notPublic[family].check(bare, family) && !allowListOf(policy)[family].check(bare, family)) {
    return `${bare} is a private or loopback address outside WEBHOOK_ALLOWED_CIDRS`;
  }
  return null;
}

/** `…:0:5efe:a.b.c.d` or `…:200:5efe:…` (RFC 5214): the last 32 bits are an IPv4 address, under any prefix. */
function hasIsatapInterfaceId(ipv6: string): boolean {
  const hextets = hextetsOf(ipv6);
  return (hextets[4] === 0 || hextets[4] === 0x200) && hextets[5] === 0x5efe;
}

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail counted as two). */
function hextetsOf(ipv6: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ipv6);
  const text = dotted ? ipv6.slice(0, dotted.index) + [(Number(dotted[1]) << 8) | Number(dotted[2]), (Number(dotted[3]) << 8) | Number(dotted[4])].map((n) => n.toString(16)).join(":") : ipv6;
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const start = parse(head);
  const end = tail === undefined ? [] : parse(tail);
  return [...start, ...new Array<number>(8 - start.length - end.length).fill(0), ...end];
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
