import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER, resolveClientIp } from "@/lib/client-ip";
import { installPeerAddress } from "./peer-address";

/**
 * The connection's address on every request, as Next's own server receives it: a real Node HTTP
 * server, a client connecting from another loopback address and sending a peer header of its own.
 */
describe("the peer address stamped on each request", () => {
  let server: http.Server;
  let port: number;
  const seen: { headers: Headers; raw: string[] }[] = [];

  beforeAll(async () => {
    installPeerAddress();
    installPeerAddress(); // twice is once
    server = http.createServer((request, response) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
      seen.push({ headers, raw: [...request.rawHeaders, ...Object.values(request.headersDistinct).flat().filter((value) => value !== undefined)] });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (localAddress: string, headers: Record<string, string | string[]>) =>
    new Promise<void>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port, localAddress, headers, agent: false }, (response) => response.resume().on("end", resolve)).on("error", reject);
    });

  it("is the socket's address, whatever the client sent under the same name or in X-Forwarded-For", async () => {
    await get("127.0.0.9", { [PEER_ADDRESS_HEADER]: ["6.6.6.6", "7.7.7.7"], "x-forwarded-for": "8.8.8.8" });
    await get("127.0.0.23", {});
    const settings = { CLIENT_IP_HEADER: "x-forwarded-for" };
    expect(seen.map(({ headers }) => resolveClientIp(headers, settings))).toEqual(["127.0.0.9", "127.0.0.23"]);
    // Not a trace of the client's own value, in the parsed headers or the raw ones.
    for (const { headers, raw } of seen) {
      expect(headers.get(PEER_ADDRESS_HEADER)).not.toMatch(/6\.6\.6\.6|7\.7\.7\.7/);
      expect(raw.join(" ")).not.toMatch(/6\.6\.6\.6|7\.7\.7\.7/);
    }
  });
});
