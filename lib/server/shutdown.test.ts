import { describe, expect, it } from "vitest";
import { createShutdown } from "./shutdown";

function recorder() {
  const lines: string[] = [];
  const log = { info: (_: object, message: string) => void lines.push(message), error: (_: object, message: string) => void lines.push(`ERROR ${message}`) };
  return { lines, log };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the server's shutdown order", () => {
  it("drains from the signal, runs the signal steps, and holds an early exit until they and the final steps are done", async () => {
    const { log } = recorder();
    const order: string[] = [];
    let finishPoll!: () => void;
    const exits: number[] = [];
    const shutdown = createShutdown({ log, exit: (code) => void exits.push(code), timeoutMs: 60_000 });
    shutdown.onShutdown("database", async () => void order.push("database closed"), "before-exit");
    shutdown.onShutdown("token watcher", () => new Promise<void>((resolve) => (finishPoll = () => (order.push("leases released"), resolve()))));

    expect(shutdown.isDraining()).toBe(false);
    void shutdown.begin("SIGTERM");
    expect(shutdown.isDraining()).toBe(true);
    // Next has finished its last request and exits while a poll is still under way.
    shutdown.exitWhenDone(143);
    await tick();
    expect(exits).toEqual([]);
    expect(order).toEqual([]);

    finishPoll();
    await tick();
    await tick();
    expect(order).toEqual(["leases released", "database closed"]);
    expect(exits).toEqual([143]);
  });

  it("exits at the time limit when a step never ends, and once only", async () => {
    const { lines, log } = recorder();
    const exits: number[] = [];
    const shutdown = createShutdown({ log, exit: (code) => void exits.push(code), timeoutMs: 20 });
    shutdown.onShutdown("stuck", () => new Promise<void>(() => undefined));
    void shutdown.begin("SIGTERM");
    shutdown.exitWhenDone(143);
    shutdown.exitWhenDone(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(exits).toEqual([143]);
    expect(lines).toContain("ERROR shutdown steps still running at the time limit; exiting anyway");
  });

  it("carries on past a failing step", async () => {
    const { lines, log } = recorder();
    const exits: number[] = [];
    const shutdown = createShutdown({ log, exit: (code) => void exits.push(code), timeoutMs: 60_000 });
    shutdown.onShutdown("broken", () => Promise.reject(new Error("no")));
    shutdown.onShutdown("database", async () => undefined, "before-exit");
    await shutdown.begin("SIGINT");
    shutdown.exitWhenDone(0);
    await tick();
    await tick();
    expect(lines).toContain("ERROR shutdown step failed; carrying on with the next");
    expect(exits).toEqual([0]);
  });
});
