import { describe, expect, it } from "vitest";
import { AuditWriteBudget, BoundedThrottleMap } from "./signed-out-writes";

describe("lock-out state of unknown usernames", () => {
  it("never holds more than its bound, evicting the least recently touched", () => {
    const map = new BoundedThrottleMap(100);
    for (let index = 0; index < 1000; index += 1) map.set(`user${index}`, { recentFailures: [new Date()], lockedUntil: null });
    expect(map.size).toBe(100);
    expect(map.get("user999").recentFailures).toHaveLength(1);
    expect(map.get("user0").recentFailures).toHaveLength(0);
  });

  it("forgets an empty state", () => {
    const map = new BoundedThrottleMap(10);
    map.set("someone", { recentFailures: [new Date()], lockedUntil: null });
    map.set("someone", { recentFailures: [], lockedUntil: null });
    expect(map.size).toBe(0);
  });
});

describe("the audit budget of signed-out failures", () => {
  it("lets 60 a minute through, then counts the rest and reports them once in the next minute", () => {
    const budget = new AuditWriteBudget(60, 60_000);
    const start = new Date("2026-11-24T10:00:00Z");
    const tickets = Array.from({ length: 500 }, (_, index) => budget.take(new Date(start.getTime() + index)));
    expect(tickets.filter((ticket) => ticket.isAllowed)).toHaveLength(60);
    const next = budget.take(new Date(start.getTime() + 61_000));
    expect(next).toEqual({ isAllowed: true, suppressedBefore: { count: 440, windowStartedAt: start } });
    expect(budget.take(new Date(start.getTime() + 61_001)).suppressedBefore).toBeUndefined();
  });
});
