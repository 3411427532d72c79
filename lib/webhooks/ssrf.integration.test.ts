import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressPolicyFrom, refusalOf, type Resolver } from "./address-policy";
import { sendWebhook, urlProblemOf } from "./send";

/**
 * No SSRF: a real listening socket on every local address (IPv4 and IPv6, so 127.0.0.2, 0.0.0.0
 * and ::ffff:127.0.0.1 would all reach it) counts the connections it accepts. Every refused
 * destination must leave the count unchanged: refused before any connection opens.
 */

const policy = { allowedCidrs: ["127.0.0.1/32"] };
let server: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  server = createServer((_request, response) => response.end("ok"));
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "::", ipv6Only: false }, resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const send = (url: string, resolver?: Resolver) => sendWebhook(url, {}, "{}", { policy, requireHttps: false, resolver, timeoutMs: 3_000 });
const answering = (address: string, family = 4): Resolver => async () => [{ address, family }];

describe("webhook destinations", () => {
  it("connects to an allowed address, by IP or by a name that resolves into the allow-list", async () => {
    const before = connections;
    expect(await send(`http://127.0.0.1:${port}/hook`)).toMatchObject({ kind: "answered", statusCode: 200 });
    expect(await send(`http://receiver.bank.test:${port}/hook`, answering("127.0.0.1"))).toMatchObject({ kind: "answered", statusCode: 200 });
    expect(connections - before).toBe(2);
  });

  it.each([
    ["the cloud metadata address", "http://169.254.169.254:PORT/latest/meta-data"],
    ["a loopback address outside the allow-list", "http://127.0.0.2:PORT/hook"],
    ["an IPv4-mapped IPv6 address", "http://[::ffff:127.0.0.1]:PORT/hook"],
    ["an IPv4-compatible IPv6 address", "http://[::127.0.0.1]:PORT/hook"],
    ["an IPv4-compatible IPv6 address in hex", "http://[::7f00:1]:PORT/hook"],
    ["a 6to4 address of a loopback", "http://[2002:7f00:1::]:PORT/hook"],
    ["0.0.0.0", "http://0.0.0.0:PORT/hook"],
    ["IPv6 loopback outside the allow-list", "http://[::1]:PORT/hook"],
    ["a private address", "http://10.1.2.3:PORT/hook"],
  ])("refuses %s with no connection opened", async (_label, template) => {
    const before = connections;
    const result = await send(template.replace("PORT", String(port)));
    expect(result.kind).toBe("refused");
    expect(connections).toBe(before);
  });

  it("refuses a name whose DNS answer is outside the allow-list, at connection time, with no connection opened", async () => {
    const before = connections;
    // Registered while it pointed elsewhere; now the name answers with a refused address (rebinding).
    expect(await send(`http://receiver.bank.test:${port}/hook`, answering("127.0.0.2"))).toMatchObject({ kind: "refused" });
    expect(await send(`http://receiver.bank.test:${port}/hook`, answering("169.254.169.254"))).toMatchObject({ kind: "refused" });
    expect(await send(`http://receiver.bank.test:${port}/hook`, answering("::ffff:127.0.0.1", 6))).toMatchObject({ kind: "refused" });
    // A mixed answer is refused whole: the socket could otherwise pick the bad address.
    const mixed: Resolver = async () => [{ address: "127.0.0.1", family: 4 }, { address: "127.0.0.2", family: 4 }];
    expect(await send(`http://receiver.bank.test:${port}/hook`, mixed)).toMatchObject({ kind: "refused" });
    expect(connections).toBe(before);
  });

  it("never follows a redirect", async () => {
    const redirecting = createServer((_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    const before = connections;
    const result = await send(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`);
    expect(result).toMatchObject({ kind: "answered", statusCode: 302 });
    expect(connections).toBe(before);
    await new Promise((resolve) => redirecting.close(resolve));
  });
});

describe("the address policy", () => {
  it("refuses link-local, metadata, unspecified and IPv4-mapped addresses even when the allow-list holds them", () => {
    const wide = { allowedCidrs: ["0.0.0.0/0", "::/0"] };
    for (const address of ["169.254.169.254", "0.0.0.0", "::", "::ffff:127.0.0.1", "::ffff:7f00:1", "fe80::1", "fd00:ec2::254", "100.100.100.200"]) {
      expect(refusalOf(address, wide), address).not.toBeNull();
    }
    expect(refusalOf("10.0.0.5", wide)).toBeNull();
  });

  it("refuses every IPv6 form that carries an IPv4 address, public or not, even when the allow-list holds them", () => {
    const wide = { allowedCidrs: ["0.0.0.0/0", "::/0"] };
    const carriers = [
      ["IPv4-compatible", ["::127.0.0.1", "::7f00:1", "0:0:0:0:0:0:127.0.0.1", "::10.0.0.1", "::8.8.8.8", "::a9fe:a9fe"]],
      ["IPv4-mapped and -translated", ["::ffff:10.0.0.1", "::ffff:0:7f00:1", "0:0:0:0:0:ffff:7f00:1"]],
      ["NAT64", ["64:ff9b::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b:1::a00:1"]],
      ["6to4", ["2002:7f00:1::", "2002:7f00:0001::1", "2002:a9fe:a9fe::1", "2002:808:808::1"]],
      ["Teredo", ["2001::1", "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:0000:53aa:064c::1"]],
      ["ISATAP", ["2001:db9::5efe:127.0.0.1", "2a00:1450::200:5efe:7f00:1", "fd00::5efe:a00:1"]],
    ] as const;
    for (const [form, addresses] of carriers) {
      for (const address of addresses) expect(refusalOf(address, wide), `${form} ${address}`).toMatch(/never allowed/);
    }
    // Their neighbours are ordinary addresses: IPv6 loopback is judged as loopback, 2001:db8 as documentation, 2001:4860 (Google) and 2003:: are public.
    expect(refusalOf("::1", addressPolicyFrom({ APP_ENV: "test" }))).toBeNull();
    expect(refusalOf("2001:db8::1", { allowedCidrs: [] })).toMatch(/private or loopback/);
    expect(refusalOf("2001:4860:4860::8888", { allowedCidrs: [] })).toBeNull();
    expect(refusalOf("2003::1", { allowedCidrs: [] })).toBeNull();
    expect(refusalOf("2a00:1450::1:5efe:7f00:1", { allowedCidrs: [] })).toBeNull();
  });

  it("allows public addresses and the allow-list; loopback only by default outside production", () => {
    expect(refusalOf("8.8.8.8", { allowedCidrs: [] })).toBeNull();
    expect(refusalOf("2001:4860:4860::8888", { allowedCidrs: [] })).toBeNull();
    expect(refusalOf("10.20.30.40", { allowedCidrs: ["10.20.0.0/16"] })).toBeNull();
    expect(refusalOf("10.21.30.40", { allowedCidrs: ["10.20.0.0/16"] })).not.toBeNull();
    expect(refusalOf("127.0.0.1", addressPolicyFrom({ APP_ENV: "local" }))).toBeNull();
    expect(refusalOf("::1", addressPolicyFrom({ APP_ENV: "test" }))).toBeNull();
    expect(refusalOf("127.0.0.1", addressPolicyFrom({ APP_ENV: "production" }))).not.toBeNull();
    expect(refusalOf("127.0.0.1", addressPolicyFrom({ APP_ENV: "production", WEBHOOK_ALLOWED_CIDRS: ["0.0.0.0/0"] }))).not.toBeNull();
    expect(refusalOf("10.1.2.3", addressPolicyFrom({ APP_ENV: "production", WEBHOOK_ALLOWED_CIDRS: ["0.0.0.0/0"] }))).toBeNull();
  });

  it("wants https:// in production, and no credentials in the URL", () => {
    expect(urlProblemOf("http://bank.example/hook", { policy, requireHttps: true })).toMatch(/https/);
    expect(urlProblemOf("https://bank.example/hook", { policy, requireHttps: true })).toBeNull();
    expect(urlProblemOf("https://user:pw@bank.example/hook", { policy, requireHttps: true })).toMatch(/password/);
    expect(urlProblemOf("ftp://bank.example/hook", { policy, requireHttps: false })).not.toBeNull();
  });
});
