import { Agent, createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { installConnectionDrain, type ConnectionDrain } from "./connection-drain";

/** A server whose answers wait until `answer()` is called, as a slow page or a long poll does. */
function slowServer() {
  const waiting: Array<() => void> = [];
  const server = createServer((_, response) => void waiting.push(() => response.end("ok")));
  return { server, answerAll: () => waiting.splice(0).forEach((answer) => answer()), waitingCount: () => waiting.length };
}

function get(port: number, agent: Agent): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request({ port, agent, path: "/" }, (response) => {
      response.resume();
      response.on("end", () => resolve(response));
    })
      .on("error", reject)
      .end();
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("a stopping instance's keep-alive connections", () => {
  let drain: ConnectionDrain | undefined;
  let server: Server | undefined;
  afterEach(() => {
    drain?.uninstall();
    server?.closeAllConnections();
    server?.close();
  });

  it("stay open while the instance runs, and close with each answer from the signal on", async () => {
    let draining = false;
    drain = installConnectionDrain(() => draining);
    const slow = slowServer();
    server = slow.server;
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });

    // Running: the balancer's connection is kept for its next request.
    const running = get(port, agent);
    await until(() => slow.waitingCount() === 1);
    slow.answerAll();
    expect((await running).headers.connection).toBe("keep-alive");

    // A request under way at the signal: its answer closes the connection.
    const underWay = get(port, agent);
    await until(() => slow.waitingCount() === 1);
    draining = true;
    drain.closeConnections();
    slow.answerAll();
    expect((await underWay).headers.connection).toBe("close");

    // And the server, closed as Next closes it, is closed once that answer has gone.
    const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
    await closed;
    server = undefined;
  });

  it("close when a request arrives on a kept connection after the signal", async () => {
    let draining = false;
    drain = installConnectionDrain(() => draining);
    const slow = slowServer();
    server = slow.server;
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });

    const first = get(port, agent);
    await until(() => slow.waitingCount() === 1);
    slow.answerAll();
    await first;

    draining = true;
    const afterSignal = get(port, agent);
    await until(() => slow.waitingCount() === 1);
    slow.answerAll();
    expect((await afterSignal).headers.connection).toBe("close");
  });
});
