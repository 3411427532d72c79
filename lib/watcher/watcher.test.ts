import { describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/errors";
import { defaultPollSchedulePolicy } from "@/lib/tokens/poll-schedule";
import { defaultFollowPolicy, type IssuedTokenFacts } from "@/lib/tokens/state";
import { MemoryWatcherStore } from "./memory-store";
import type { TokenStatusSource, WatcherSettings } from "./types";
import { createWatcher } from "./watcher";

const issuedAt = new Date("2026-11-22T09:00:00.000Z");
const settings: WatcherSettings = {
  tickMs: 1000,
  batchSize: 10,
  concurrency: 3,
  leaseMs: 60_000,
  follow: defaultFollowPolicy,
  schedule: defaultPollSchedulePolicy,
};
const silentLogger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };

type StateAnswer = "pending" | "used" | "invalid" | Error;
type ResultAnswer =
  | { kind: "result"; status: "SUCCESSFUL" | "FAILED"; transactionNumber: string; error?: string }
  | { kind: "no-result" }
  | { kind: "invalid" }
  | Error;

/** A service that answers what each test sets, and counts the calls per endpoint. */
function fakeService() {
  const states = new Map<string, StateAnswer>();
  const results = new Map<string, ResultAnswer>();
  const calls: { endpoint: "check_token_status" | "token_status"; token: string }[] = [];
  const source: TokenStatusSource = {
    async checkTokenState(token) {
      calls.push({ endpoint: "check_token_status", token });
      const answer = states.get(token) ?? "pending";
      if (answer instanceof Error) throw answer;
      return { state: answer };
    },
    async getTokenResult(token) {
      calls.push({ endpoint: "token_status", token });
      const answer = results.get(token) ?? { kind: "no-result" };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { states, results, calls, source };
}

function setup(options: { atSeconds?: number } = {}) {
  const clock = { now: new Date(issuedAt.getTime() + (options.atSeconds ?? 1) * 1000) };
  const store = new MemoryWatcherStore();
  const service = fakeService();
  const watcher = createWatcher({
    store,
    source: service.source,
    settings,
    logger: silentLogger,
    now: () => new Date(clock.now),
    random: () => 0.5,
  });
  const addToken = (id: string, token: string, facts: Partial<IssuedTokenFacts> = {}) =>
    store.add({ id, token, facts: { issuance: "issued", issuedAt, ...facts } });
  const advance = (seconds: number) => {
    clock.now = new Date(clock.now.getTime() + seconds * 1000);
  };
  return { clock, store, service, watcher, addToken, advance };
}

describe("the watcher", () => {
  it("asks check_token_status about a waiting token and comes back in a few seconds", async () => {
    const { store, service, watcher, addToken, clock } = setup();
    addToken("a", "TOKENA01");
    expect(await watcher.runOnce()).toBe(1);
    const row = store.rows.get("a")!;
    expect(service.calls).toEqual([{ endpoint: "check_token_status", token: "TOKENA01" }]);
    expect(row.state).toBe("waiting");
    expect(row.nextPollAt).toEqual(new Date(clock.now.getTime() + 3000));
    expect(row.leaseOwner).toBeNull();
    expect(row.events).toEqual([]);
  });

  it("asks token_status in the same poll once the token is used, and records the result as final", async () => {
    const { store, service, watcher, addToken } = setup();
    addToken("a", "TOKENA01");
    service.states.set("TOKENA01", "used");
    service.results.set("TOKENA01", { kind: "result", status: "SUCCESSFUL", transactionNumber: "GH-STE-1-2-3" });
    await watcher.runOnce();
    const row = store.rows.get("a")!;
    expect(service.calls.map((call) => call.endpoint)).toEqual(["check_token_status", "token_status"]);
    expect(row.state).toBe("successful");
    expect(row.facts.closed?.state).toBe("successful");
    expect(row.nextPollAt).toBeNull();
    expect(row.events).toEqual([
      expect.objectContaining({
        type: "state_changed",
        details: { from: "waiting", to: "successful", transactionNumber: "GH-STE-1-2-3", error: null },
      }),
    ]);
  });

  it("follows a used token with token_status alone, through in progress to failed with the error text", async () => {
    const { store, service, watcher, addToken, advance } = setup();
    addToken("a", "TOKENA01");
    service.states.set("TOKENA01", "used");
    await watcher.runOnce();
    expect(store.rows.get("a")!.state).toBe("in_progress");
    service.calls.length = 0;
    advance(3);
    service.results.set("TOKENA01", { kind: "result", status: "FAILED", transactionNumber: "GH-INP-1", error: "Verification Unsuccesful" });
    await watcher.runOnce();
    expect(service.calls.map((call) => call.endpoint)).toEqual(["token_status"]);
    const row = store.rows.get("a")!;
    expect(row.state).toBe("failed");
    expect(row.facts.result).toMatchObject({ status: "FAILED", error: "Verification Unsuccesful" });
    expect(row.events.map((event) => event.details.to)).toEqual(["in_progress", "failed"]);
  });

  it("records a fault as a service problem, backs off, and notes the recovery; never a failure", async () => {
    const { store, service, watcher, addToken, advance, clock } = setup();
    addToken("a", "TOKENA01");
    service.states.set("TOKENA01", new AppError("UPSTREAM_SERVER_ERROR", "500"));
    await watcher.runOnce();
    let row = store.rows.get("a")!;
    expect(row.state).toBe("waiting");
    expect(row.consecutiveFaults).toBe(1);
    expect(row.nextPollAt).toEqual(new Date(clock.now.getTime() + 5000));
    expect(row.events).toEqual([expect.objectContaining({ type: "service_unreachable", details: { code: "UPSTREAM_SERVER_ERROR" } })]);

    advance(5);
    await watcher.runOnce();
    row = store.rows.get("a")!;
    expect(row.consecutiveFaults).toBe(2);
    expect(row.nextPollAt).toEqual(new Date(clock.now.getTime() + 10_000));
    expect(row.events).toHaveLength(1);

    advance(10);
    service.states.set("TOKENA01", "pending");
    await watcher.runOnce();
    row = store.rows.get("a")!;
    expect(row.consecutiveFaults).toBe(0);
    expect(row.events.map((event) => event.type)).toEqual(["service_unreachable", "service_recovered"]);
  });

  it("treats an error that is not the service's as a fault with its own code", async () => {
    const { store, service, watcher, addToken } = setup();
    addToken("a", "TOKENA01");
    service.states.set("TOKENA01", new TypeError("bug"));
    await watcher.runOnce();
    expect(store.rows.get("a")!.facts.lastFault?.code).toBe("INTERNAL");
    expect(store.rows.get("a")!.state).toBe("waiting");
  });

  it("closes an expired token when the service says Invalid Token after the 15 minutes", async () => {
    const { store, service, watcher, addToken } = setup({ atSeconds: 16 * 60 });
    addToken("a", "TOKENA01", { lastState: { state: "pending", at: new Date(issuedAt.getTime() + 60_000) } });
    service.states.set("TOKENA01", "invalid");
    await watcher.runOnce();
    const row = store.rows.get("a")!;
    expect(row.state).toBe("expired");
    expect(row.facts.closed?.state).toBe("expired");
    expect(row.nextPollAt).toBeNull();
    // Dated at the expiry moment, not at the poll that confirmed it a minute later.
    expect(row.events).toEqual([
      { type: "state_changed", at: new Date(issuedAt.getTime() + 15 * 60_000), details: { from: "waiting", to: "expired" } },
    ]);
  });

  it("leases each due token to one watcher only, and skips tokens not yet due or closed", async () => {
    const first = setup();
    const second = createWatcher({
      store: first.store,
      source: first.service.source,
      settings,
      logger: silentLogger,
      now: () => new Date(first.clock.now),
    });
    for (let index = 0; index < 6; index += 1) first.addToken(`t${index}`, `TOKEN00${index}`);
    first.store.rows.get("t5")!.nextPollAt = new Date(first.clock.now.getTime() + 60_000);
    first.store.rows.get("t4")!.facts.closed = { state: "expired", at: issuedAt };
    const [a, b] = await Promise.all([first.watcher.runOnce(), second.runOnce()]);
    expect(a + b).toBe(4);
    const polledTokens = first.service.calls.map((call) => call.token).sort();
    expect(polledTokens).toEqual(["TOKEN000", "TOKEN001", "TOKEN002", "TOKEN003"]);
  });

  it("does not save over a lease it no longer holds", async () => {
    const { store, service, watcher, addToken } = setup();
    addToken("a", "TOKENA01");
    service.states.set("TOKENA01", "used");
    const originalSave = store.saveOutcome.bind(store);
    store.saveOutcome = async (input) => {
      store.rows.get("a")!.leaseOwner = "someone-else";
      return originalSave(input);
    };
    await watcher.runOnce();
    expect(store.rows.get("a")!.state).toBe("waiting");
    expect(silentLogger.warn).toHaveBeenCalledWith(expect.anything(), expect.stringContaining("lost its lease"));
  });

  it("keeps ticking on its own, and stop() waits for the tick and hands back its leases", async () => {
    vi.useFakeTimers();
    try {
      const { store, service, watcher, addToken, clock } = setup();
      addToken("a", "TOKENA01");
      watcher.start();
      await vi.advanceTimersByTimeAsync(10);
      expect(service.calls).toHaveLength(1);
      clock.now = new Date(clock.now.getTime() + 3000);
      await vi.advanceTimersByTimeAsync(settings.tickMs);
      expect(service.calls).toHaveLength(2);

      store.rows.get("a")!.leaseOwner = watcher.owner;
      store.rows.get("a")!.leaseUntil = new Date(clock.now.getTime() + 60_000);
      await watcher.stop();
      expect(store.rows.get("a")!.leaseOwner).toBeNull();
      clock.now = new Date(clock.now.getTime() + 60_000);
      await vi.advanceTimersByTimeAsync(10 * settings.tickMs);
      expect(service.calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("sleeps until the next token falls due rather than a whole tick", async () => {
    vi.useFakeTimers({ now: issuedAt.getTime() + 1000 });
    try {
      const store = new MemoryWatcherStore();
      const service = fakeService();
      store.add({ id: "a", token: "TOKENA01", facts: { issuance: "issued", issuedAt } });
      const watcher = createWatcher({
        store,
        source: service.source,
        settings: { ...settings, tickMs: 10_000 },
        logger: silentLogger,
        random: () => 0.5,
      });
      watcher.start();
      await vi.advanceTimersByTimeAsync(10);
      expect(service.calls).toHaveLength(1);
      // Due 3 s later: polled then, not at the 10 s tick.
      await vi.advanceTimersByTimeAsync(3_100);
      expect(service.calls).toHaveLength(2);
      await watcher.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("survives a store that fails, and carries on when it is back", async () => {
    vi.useFakeTimers();
    try {
      const { store, service, watcher, addToken } = setup();
      addToken("a", "TOKENA01");
      const originalLease = store.leaseDue.bind(store);
      let failures = 2;
      store.leaseDue = async (input) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error("database is restarting");
        }
        return originalLease(input);
      };
      watcher.start();
      await vi.advanceTimersByTimeAsync(10 * settings.tickMs);
      expect(service.calls.length).toBeGreaterThanOrEqual(1);
      expect(silentLogger.error).toHaveBeenCalledWith(expect.anything(), "watcher tick failed");
      await watcher.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
