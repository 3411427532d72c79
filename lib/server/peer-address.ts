import { randomBytes } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import { PEER_ADDRESS_HEADER, peerAddressProof } from "@/lib/client-ip";

/**
 * Hands every request the address of the connection it came on (ADR 0039), so sign-in can be
 * limited per address when the app is served directly, without a balancer in front.
 *
 * Next owns the HTTP server and gives the app no socket, but Node publishes each request on the
 * `http.server.request.start` channel before the server's own handler sees it (connection-drain.ts
 * listens there too). This writes `x-veridesk-peer: <proof>;<socket address>` onto the request
 * there, replacing whatever a client sent under that name, in `headers` and `rawHeaders` alike.
 * The proof is a random value of this process: a request that arrived before this ran (the
 * moment of boot) keeps a client's own header, and client-ip.ts reads none without the proof.
 */
type RequestStart = { request: IncomingMessage };

const requestStartChannel = "http.server.request.start";

const globalForPeer = globalThis as typeof globalThis & { verideskPeerAddressInstalled?: boolean };

export function installPeerAddress(): void {
  if (globalForPeer.verideskPeerAddressInstalled) return;
  globalForPeer.verideskPeerAddressInstalled = true;
  const proof = peerAddressProof(() => randomBytes(18).toString("base64url"))!;
  subscribe(requestStartChannel, (message) => stampPeerAddress((message as RequestStart).request, proof));
}

/** Replaces any client-sent peer header with the socket's address (or none, if the socket has gone). */
export function stampPeerAddress(request: IncomingMessage, proof: string): void {
  const address = request.socket?.remoteAddress;
  const value = address ? `${proof};${address}` : undefined;
  // Node builds `headers` from `rawHeaders` on first read, counting the raw entries it parsed:
  // read it before `rawHeaders` is changed.
  const headers = request.headers;
  if (value === undefined) delete headers[PEER_ADDRESS_HEADER];
  else headers[PEER_ADDRESS_HEADER] = value;
  // In place, never shorter: Node reads `headersDistinct` from the raw entries it parsed, by count.
  const raw = request.rawHeaders;
  let isStamped = false;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    if (raw[index]!.toLowerCase() !== PEER_ADDRESS_HEADER) continue;
    raw[index + 1] = value ?? "";
    isStamped = true;
  }
  if (value !== undefined && !isStamped) raw.push(PEER_ADDRESS_HEADER, value);
}
