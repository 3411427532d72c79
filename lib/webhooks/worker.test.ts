import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { nudge } from "@/lib/nudges";
import type { DbExecutor } from "@/lib/db/types";

/**
 * The delivery worker's pace apart from the database (ADR 0047): idle it backs off and only asks
 * when the next delivery is due; an outbox row committed in this process wakes it at once. The
 * sends themselves are proven against a real database and receiver in delivery.integration.test.ts.
 */

const leases = vi.hoisted(() => ({ calls: 0 }));
vi.mock("./store", () => ({
  leaseDueDeliveries: async () => ((leases.calls += 1), []),
  releaseDeliveryLeases: async () => undefined,
  recordAttempt: async () => ({ outcome: "delivered" }),
  bodyOf: async () => "{}",
}));

const { createWebhookWorker } = await import("./worker");

function setup(nextDue: () => Date | null = () => null) {
  const counts = { looks: 0 };
  const worker = createWebhookWorker({
    db: {} as DbExecutor,
    keys: () => {
      throw new Error("no keys needed: nothing is sent");
    },
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    settings: { tickMs: 1_000, idleMaxMs: 5_000, leaseMs: 60_000, maxInFlight: 2, policy: { allowedCidrs: [] }, requireHttps: false },
    nextDueAt: async () => ((counts.looks += 1), nextDue()),
  });
  return { worker, counts };
}

describe("the webhook worker when idle", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    leases.calls = 0;
  });
  afterEach(() => vi.useRealTimers());

  it("backs off from tickMs to idleMaxMs and then only asks when the next delivery is due: no lease", async () => {
    const { worker, counts } = setup();
    worker.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(leases.calls).toBe(1);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(leases.calls).toBe(1);
    expect(counts.looks).toBeGreaterThanOrEqual(600 / 5 - 1);
    expect(counts.looks).toBeLessThanOrEqual(600 / 5 + 4);
    await worker.stop();
  });

  it("an outbox nudge makes a backed-off worker lease at once", async () => {
    const { worker } = setup();
    worker.start();
    await vi.advanceTimersByTimeAsync(60_000);
    const before = leases.calls;
    nudge("outbox");
    await vi.advanceTimersByTimeAsync(0);
    expect(leases.calls).toBe(before + 1);
    await worker.stop();
    // Stopped, it no longer listens.
    nudge("outbox");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(leases.calls).toBe(before + 1);
  });

  it("a delivery due later (a retry, another instance's row) is leased when due, within idleMaxMs", async () => {
    let dueAt: Date | null = null;
    const { worker } = setup(() => dueAt);
    worker.start();
    await vi.advanceTimersByTimeAsync(60_000);
    const before = leases.calls;
    dueAt = new Date(Date.now() + 1_500);
    let waitedMs = 0;
    while (leases.calls === before && waitedMs < 20_000) {
      await vi.advanceTimersByTimeAsync(100);
      waitedMs += 100;
    }
    expect(waitedMs).toBeLessThanOrEqual(5_000);
    expect(Date.now()).toBeGreaterThanOrEqual(dueAt.getTime());
    await worker.stop();
  });
});
