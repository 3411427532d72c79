import { isIP } from "node:net";

/**
 * The client's IP address, for the per-address sign-in limits and the audit trail (ADRs 0015,
 * 0039). Served directly (no trusted-proxy setting), the client is the connection's own address,
 * which lib/server/peer-address.ts writes onto each request (`x-veridesk-peer`, with this
 * process's proof, so no client can write it). Behind a balancer, `X-Forwarded-For` is read only as
 * far as the operator says it can be trusted (TRUSTED_PROXY_HOPS or TRUSTED_PROXY_CIDRS, see README
 * "Production"); with CIDRs, only from a connection that is one of those balancers (a request
 * straight to the app is its own client). Anything that does not resolve is unknown (`null`),
 * which never shares a bucket with everyone else.
 */

/** The header lib/server/peer-address.ts stamps: `<proof>;<socket address>`. */
export const PEER_ADDRESS_HEADER = "x-veridesk-peer";

const globalForPeer = globalThis as typeof globalThis & { verideskPeerAddressProof?: string };

/** This process's proof of a stamped peer header, made once by `make` (the hook's installer). */
export function peerAddressProof(make?: () => string): string | undefined {
  if (make) globalForPeer.verideskPeerAddressProof ??= make();
  return globalForPeer.verideskPeerAddressProof;
}

/** The connection's address, if this process stamped it (a client-sent header without the proof is nobody's). */
export function peerAddressOf(headers: Headers): string | null {
  const proof = peerAddressProof();
  const value = headers.get(PEER_ADDRESS_HEADER);
  if (!proof || !value || !value.startsWith(`${proof};`)) return null;
  return normalizeIp(value.slice(proof.length + 1));
}

export type TrustedProxySettings = {
  /** The header the balancer writes (lower case); `x-forwarded-for` unless told otherwise. */
  CLIENT_IP_HEADER: string;
  /** How many proxies in front of the app append to the header: the client is that many from the right. */
  TRUSTED_PROXY_HOPS?: number;
  /** The balancers' own addresses: hops from these are skipped, right to left. */
  TRUSTED_PROXY_CIDRS?: string[];
};

type Network = { bytes: Uint8Array; prefix: number };

export function resolveClientIp(headers: Headers, settings: TrustedProxySettings): string | null {
  const { TRUSTED_PROXY_HOPS: hops, TRUSTED_PROXY_CIDRS: cidrs } = settings;
  const peer = peerAddressOf(headers);
  // Served directly: the connection is the client, whatever a forwarding header says.
  if (!hops && !cidrs?.length) return peer;
  const networks = (cidrs ?? []).map(parseCidr).filter((network): network is Network => network !== null);
  // A connection that is not one of the named balancers came straight to the app: it is the client.
  if (cidrs?.length && peer && !networks.some((network) => inNetwork(ipBytes(peer)!, network))) return peer;
  const raw = headers.get(settings.CLIENT_IP_HEADER);
  if (!raw) return null;
  const chain = raw.split(",").map((entry) => entry.trim());
  if (hops) {
    // Each trusted proxy appended exactly one entry; anything further left came from the client.
    if (chain.length < hops) return null;
    return normalizeIp(chain[chain.length - hops]!);
  }
  for (let index = chain.length - 1; index >= 0; index--) {
    const bytes = ipBytes(chain[index]!);
    if (!bytes) return null;
    if (networks.some((network) => inNetwork(bytes, network))) continue;
    return normalizeIp(chain[index]!);
  }
  return null;
}

/** A valid address in one spelling (IPv4-mapped IPv6 as IPv4, IPv6 lower case), else null. */
export function normalizeIp(value: string): string | null {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value)?.[1];
  if (mapped && isIP(mapped) === 4) return mapped;
  const family = isIP(value);
  if (family === 4) return value;
  if (family === 6) return value.toLowerCase();
  return null;
}

/**
 * The bucket of an address for a per-address limit: an IPv4 address itself, an IPv6 address's /64
 * (one subscriber's network: a single host may use any address in it, and would otherwise get a
 * fresh bucket per guess).
 */
export function addressBucketOf(ip: string): string {
  const bytes = ipBytes(ip);
  if (!bytes || bytes.length === 4) return ip;
  const groups = Array.from({ length: 4 }, (_, index) => ((bytes[index * 2]! << 8) | bytes[index * 2 + 1]!).toString(16));
  return `${groups.join(":")}::/64`;
}

export function isValidCidr(value: string): boolean {
  return parseCidr(value) !== null;
}

function parseCidr(value: string): Network | null {
  const [address, prefixText, ...rest] = value.trim().split("/");
  if (rest.length > 0 || !address) return null;
  const bytes = ipBytes(address);
  if (!bytes) return null;
  const maxBits = bytes.length * 8;
  if (prefixText === undefined) return { bytes, prefix: maxBits };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > maxBits) return null;
  return { bytes, prefix: Number(prefixText) };
}

function ipBytes(value: string): Uint8Array | null {
  const ip = normalizeIp(value);
  if (!ip) return null;
  if (isIP(ip) === 4) return Uint8Array.from(ip.split(".").map(Number));
  const [head = "", tail = ""] = ip.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = ip.includes("::") ? (tail ? tail.split(":") : []) : [];
  // Not handled: an IPv6 with an embedded dotted quad other than ::ffff: (never sent by balancers).
  if ([...headGroups, ...tailGroups].some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  const groups = ip.includes("::")
    ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups]
    : headGroups;
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    const number = Number.parseInt(group, 16);
    bytes[index * 2] = number >> 8;
    bytes[index * 2 + 1] = number & 0xff;
  });
  return bytes;
}

function inNetwork(bytes: Uint8Array, network: Network): boolean {
  if (bytes.length !== network.bytes.length) return false;
  let bitsLeft = network.prefix;
  for (let index = 0; index < bytes.length && bitsLeft > 0; index++) {
    const take = Math.min(8, bitsLeft);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[index]! & mask) !== (network.bytes[index]! & mask)) return false;
    bitsLeft -= take;
  }
  return true;
}
