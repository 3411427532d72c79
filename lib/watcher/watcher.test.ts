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
  maxInFlight: 3,
  leaseMs: 10_000,
  callsPerSecond: 100,
  watchedWindowMs: 10_000,
  defaultPauseMs: 30_000,
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

function setup(options: { atSeconds?: number; settings?: Partial<WatcherSettings> } = {}) {
  const clock = { now: new Date(issuedAt.getTime() + (options.atSeconds ?? 1) * 1000) };
  const store = new MemoryWatcherStore();
  const service = fakeService();
  const watcher = createWatcher({
    store,
    source: service.source,
    settings: { ...settings, ...options.settings },
    logger: silentLogger,
    now: () => new Date(clock.now),
    random: () => 0.5,
  });
  /** A token a page is showing right now, unless `isWatched: false`. */
  const addToken = (id: string, token: string, facts: Partial<IssuedTokenFacts> = {}, { isWatched = true } = {}) =>
    store.add({ id, token, facts: { issuance: "issued", issuedAt, ...facts }, lastViewedAt: isWatched ? new Date(clock.now) : null });
  const advance = (seconds: number) => {
    clock.now = new Date(clock.now.getTime() + seconds * 1000);
  };
  return { clock, store, service, watcher, addToken, advance };
}

describe("the watcher", () => {
  it("asks check_token_status about a waiting token, back in 2 s while a page shows it, in 30 s while nobody does", async () => {
    const { store, service, watcher, addToken, clock } = setup();
    addToken("a", "TOKENA01");
    addToken("b", "TOKENB01", {}, { isWatched: false });
    expect(await watcher.runOnce()).toBe(2);
    const row = store.rows.get("a")!;
    expect(service.calls).toEqual([
      { endpoint: "check_token_status", token: "TOKENA01" },
      { endpoint: "check_token_status", token: "TOKENB01" },
    ]);
    expect(row.state).toBe("waiting");
    expect(row.nextPollAt).toEqual(new Date(clock.now.getTime() + 2000));
    expect(store.rows.get("b")!.nextPollAt).toEqual(new Date(clock.now.getTime() + 30_000));
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
    addToken("a", "TOKENA01", {}, { isWatched: false });
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

  it("takes one Invalid Token within the 15 minutes for a possible mistake: asks again 5 s later, and only a second one closes the token", async () => {
    const { store, service, watcher, addToken, advance, clock } = setup({ atSeconds: 60, settings: { maxInFlight: 10 } });
    addToken("a", "TOKENA01", {}, { isWatched: false });
    service.states.set("TOKENA01", "invalid");
    await watcher.runOnce();
    let row = store.rows.get("a")!;
    expect(row.state).toBe("waiting");
    // Not the 30 s of a token nobody watches: 5 s after the first Invalid Token.
    expect(row.nextPollAt).toEqual(new Date(clock.now.getTime() + 5_000));

    // The provider recovered: Pending Token takes the first answer back.
    advance(5);
    service.states.set("TOKENA01", "pending");
    await watcher.runOnce();
    row = store.rows.get("a")!;
    expect(row.state).toBe("waiting");
    expect(row.facts.invalidSeenAt).toBeNull();
    expect(row.nextPollAt).toEqual(new Date(clock.now.getTime() + 30_000));

    // Invalid Token again, then again 5 s later: now it is invalid.
    advance(30);
    service.states.set("TOKENA01", "invalid");
    await watcher.runOnce();
    expect(store.rows.get("a")!.state).toBe("waiting");
    advance(5);
    await watcher.runOnce();
    row = store.rows.get("a")!;
    expect(row.state).toBe("invalid");
    expect(row.nextPollAt).toBeNull();
    expect(row.events).toEqual([expect.objectContaining({ type: "state_changed", details: { from: "waiting", to: "invalid" } })]);
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
    const first = setup({ settings: { maxInFlight: 10 } });
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
      clock.now = new Date(clock.now.getTime() + 2000);
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
      store.add({ id: "a", token: "TOKENA01", facts: { issuance: "issued", issuedAt }, lastViewedAt: new Date(issuedAt.getTime() + 1000) });
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
      // Due 2 s later: polled then, not at the 10 s tick.
      await vi.advanceTimersByTimeAsync(2_100);
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
      expect(silentLogger.error).toHaveBeenCalledWith(expect.anything(), "watcher could not lease tokens");
      await watcher.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("never lets one hanging call hold up another token: each poll has its own slot", async () => {
    vi.useFakeTimers({ now: issuedAt.getTime() + 1000 });
    try {
      const { store, service, watcher, addToken, clock } = setup();
      let releaseHeld: (() => void) | undefined;
      const check = service.source.checkTokenState.bind(service.source);
      service.source.checkTokenState = async (token) => {
        if (token !== "HELD0001") return check(token);
        service.calls.push({ endpoint: "check_token_status", token });
        await new Promise<void>((resolve) => (releaseHeld = resolve));
        throw new AppError("UPSTREAM_TIMEOUT", "held");
      };
      addToken("held", "HELD0001");
      addToken("b", "TOKENB01");
      service.states.set("TOKENB01", "used");
      watcher.start();
      await vi.advanceTimersByTimeAsync(10);
      expect(store.rows.get("b")!.state).toBe("in_progress");

      // The held call is still out; B's result is found at its next 2 s poll all the same.
      service.results.set("TOKENB01", { kind: "result", status: "SUCCESSFUL", transactionNumber: "GH-STE-9" });
      clock.now = new Date(clock.now.getTime() + 2_000);
      await vi.advanceTimersByTimeAsync(2_100);
      expect(store.rows.get("b")!.state).toBe("successful");
      expect(watcher.describe().inFlight).toBe(1);

      // Its lease is renewed while it hangs, so no other instance polls it meanwhile.
      clock.now = new Date(clock.now.getTime() + 20_000);
      await vi.advanceTimersByTimeAsync(settings.leaseMs);
      expect(store.rows.get("held")!.leaseUntil!.getTime()).toBeGreaterThan(clock.now.getTime());

      releaseHeld!();
      await vi.advanceTimersByTimeAsync(10);
      expect(store.rows.get("held")!.facts.lastFault?.code).toBe("UPSTREAM_TIMEOUT");
      expect(store.rows.get("held")!.leaseOwner).toBeNull();
      await watcher.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps at most maxInFlight polls running", async () => {
    const { service, watcher, addToken } = setup({ settings: { maxInFlight: 2 } });
    for (let index = 0; index < 5; index += 1) addToken(`t${index}`, `TOKEN00${index}`);
    let running = 0;
    let mostAtOnce = 0;
    const check = service.source.checkTokenState.bind(service.source);
    service.source.checkTokenState = async (token) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return check(token);
    };
    expect(await watcher.runOnce()).toBe(2);
    expect(mostAtOnce).toBe(2);
  });

  it("leases no more polls per second than the budget shared by all instances", async () => {
    const { store, watcher, addToken, advance } = setup({ settings: { maxInFlight: 10, callsPerSecond: 3 } });
    for (let index = 0; index < 8; index += 1) addToken(`t${index}`, `TOKEN00${index}`);
    expect(await watcher.runOnce()).toBe(3);
    expect(await watcher.runOnce()).toBe(0);
    advance(1);
    expect(await watcher.runOnce()).toBe(3);
    expect(store.budget.callsInWindow).toBe(3);
  });

  it("pauses every watcher for a 429's Retry-After, and the token waits it out too", async () => {
    const { store, service, watcher, addToken, advance, clock } = setup();
    addToken("a", "TOKENA01");
    addToken("b", "TOKENB01", {}, { isWatched: false });
    store.rows.get("b")!.nextPollAt = new Date(clock.now.getTime() + 5_000);
    service.states.set("TOKENA01", new AppError("UPSTREAM_RATE_LIMITED", "429", { retryAfterMs: 20_000 }));
    await watcher.runOnce();
    const pausedUntil = new Date(clock.now.getTime() + 20_000);
    expect(store.budget.pausedUntil).toEqual(pausedUntil);
    expect(store.rows.get("a")!.nextPollAt).toEqual(pausedUntil);
    expect(store.rows.get("a")!.facts.lastFault?.code).toBe("UPSTREAM_RATE_LIMITED");

    advance(10);
    service.calls.length = 0;
    expect(await watcher.runOnce()).toBe(0);
    expect(service.calls).toEqual([]);

    advance(11);
    service.states.set("TOKENA01", "pending");
    expect(await watcher.runOnce()).toBe(2);
  });

  it("pauses for a default time when a 429 gives no Retry-After", async () => {
    const { store, service, watcher, addToken, clock } = setup();
    addToken("a", "TOKENA01");
    service.states.set("TOKENA01", new AppError("UPSTREAM_RATE_LIMITED", "429"));
    await watcher.runOnce();
    expect(store.budget.pausedUntil).toEqual(new Date(clock.now.getTime() + settings.defaultPauseMs));
  });
});

describe("the watcher when idle", () => {
  /** A store that counts how it is asked: leases (several queries and a write) and the one cheap "when is the next due?". */
  function countingSetup() {
    const store = new MemoryWatcherStore();
    const service = fakeService();
    const counts = { leases: 0, looks: 0 };
    const lease = store.leaseDue.bind(store);
    store.leaseDue = async (input) => ((counts.leases += 1), lease(input));
    const nextDue = store.nextDueAt.bind(store);
    store.nextDueAt = async () => ((counts.looks += 1), nextDue());
    const watcher = createWatcher({ store, source: service.source, settings: { ...settings, idleMaxMs: 5_000 }, logger: silentLogger, random: () => 0.5 });
    const addToken = (id: string, token: string) => store.add({ id, token, facts: { issuance: "issued", issuedAt: new Date() }, lastViewedAt: new Date() });
    return { store, service, watcher, counts, addToken };
  }

  it("backs off from tickMs to idleMaxMs, and then only asks when the next token is due: no lease", async () => {
    vi.useFakeTimers();
    try {
      const { watcher, counts } = countingSetup();
      watcher.start();
      await vi.advanceTimersByTimeAsync(10);
      expect(counts.leases).toBe(1);
      // Looks at 1, 2, 4, 8 s, then every 5 s: over ten minutes, 3 + 600 / 5 at most.
      await vi.advanceTimersByTimeAsync(600_000);
      expect(counts.leases).toBe(1);
      expect(counts.looks).toBeGreaterThanOrEqual(600 / 5 - 1);
      expect(counts.looks).toBeLessThanOrEqual(600 / 5 + 4);
      // Readiness counts a look as the loop running: never longer ago than the idle bound.
      expect(Date.now() - watcher.describe().lastLoopAt!.getTime()).toBeLessThanOrEqual(5_000);
      await watcher.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("a backed-off watcher polls a token at once when woken (a token issued, a page opened in this process)", async () => {
    vi.useFakeTimers();
    try {
      const { watcher, service, counts, addToken } = countingSetup();
      watcher.start();
      await vi.advanceTimersByTimeAsync(60_000);
      const looksBefore = counts.looks;
      addToken("a", "TOKENA01");
      watcher.wake();
      await vi.advanceTimersByTimeAsync(0);
      expect(service.calls).toEqual([{ endpoint: "check_token_status", token: "TOKENA01" }]);
      // Straight to the lease: no look first.
      expect(counts.looks - looksBefore).toBeLessThanOrEqual(1);
      await watcher.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("finds a token written by another instance (no wake) within idleMaxMs, and then keeps to its schedule", async () => {
    vi.useFakeTimers();
    try {
      const { watcher, service, addToken } = countingSetup();
      watcher.start();
      await vi.advanceTimersByTimeAsync(60_000);
      addToken("a", "TOKENA01");
      let waitedMs = 0;
      while (service.calls.length === 0 && waitedMs < 10_000) {
        await vi.advanceTimersByTimeAsync(100);
        waitedMs += 100;
      }
      expect(waitedMs).toBeLessThanOrEqual(5_000);
      // Watched: polled again when due (2 s), not at the idle bound.
      await vi.advanceTimersByTimeAsync(2_050);
      expect(service.calls).toHaveLength(2);
      await watcher.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not look again while another instance holds a due token's lease: it sleeps until the lease ends", async () => {
    vi.useFakeTimers();
    try {
      const { watcher, store, service, counts, addToken } = countingSetup();
      addToken("a", "TOKENA01");
      store.rows.get("a")!.leaseOwner = "other-instance";
      store.rows.get("a")!.leaseUntil = new Date(Date.now() + 3_000);
      watcher.start();
      await vi.advanceTimersByTimeAsync(2_900);
      expect(service.calls).toHaveLength(0);
      // Not a look every 50 ms for a token that is due but held: a handful in three seconds.
      expect(counts.leases + counts.looks).toBeLessThanOrEqual(4);
      await vi.advanceTimersByTimeAsync(200);
      expect(service.calls).toHaveLength(1);
      await watcher.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
