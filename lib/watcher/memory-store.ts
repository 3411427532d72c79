import type { IssuedTokenFacts, TokenStateName } from "@/lib/tokens/state";
import type { LeaseGrant, PollOutcome, TokenEventDraft, WatchedToken, WatcherStore } from "./types";

/**
 * A WatcherStore in memory with the same leasing rules as the database one: a row is due when its
 * next poll time has come, it is not closed, and no unexpired lease holds it. For unit tests of the
 * loop; the database store is tested against PGlite in its integration test.
 */
export type MemoryRow = {
  id: string;
  token: string;
  branchId: string | null;
  facts: IssuedTokenFacts;
  consecutiveFaults: number;
  nextPollAt: Date | null;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  state: TokenStateName;
  events: TokenEventDraft[];
  lastViewedAt: Date | null;
};

export class MemoryWatcherStore implements WatcherStore {
  readonly rows = new Map<string, MemoryRow>();
  /** The shared provider budget (one row in the database store). */
  budget = { windowStartedAt: 0, callsInWindow: 0, pausedUntil: null as Date | null, pauseReason: null as string | null };

  add(row: Pick<MemoryRow, "id" | "token" | "facts"> & Partial<MemoryRow>): MemoryRow {
    const full: MemoryRow = {
      branchId: null,
      consecutiveFaults: 0,
      nextPollAt: row.facts.issuedAt,
      leaseOwner: null,
      leaseUntil: null,
      state: "waiting",
      events: [],
      lastViewedAt: null,
      ...row,
    };
    this.rows.set(full.id, full);
    return full;
  }

  async leaseDue({ owner, now, leaseMs, limit, callsPerSecond }: { owner: string; now: Date; leaseMs: number; limit: number; callsPerSecond: number }): Promise<LeaseGrant> {
    if (this.budget.pausedUntil && this.budget.pausedUntil > now) return { tokens: [], pausedUntil: this.budget.pausedUntil, budgetSpentUntil: null };
    const isNewWindow = now.getTime() - this.budget.windowStartedAt >= 1_000 || this.budget.windowStartedAt > now.getTime();
    if (isNewWindow) this.budget = { windowStartedAt: now.getTime(), callsInWindow: 0, pausedUntil: null, pauseReason: null };
    const allowed = Math.min(limit, Math.max(0, callsPerSecond - this.budget.callsInWindow));
    const due = [...this.rows.values()]
      .filter((row) => row.nextPollAt !== null && row.nextPollAt <= now && !row.facts.closed)
      .filter((row) => row.leaseUntil === null || row.leaseUntil < now)
      .sort((a, b) => a.nextPollAt!.getTime() - b.nextPollAt!.getTime())
      .slice(0, allowed);
    this.budget.callsInWindow += due.length;
    for (const row of due) {
      row.leaseOwner = owner;
      row.leaseUntil = new Date(now.getTime() + leaseMs);
    }
    return {
      tokens: due.map((row) => ({
        id: row.id,
        token: row.token,
        branchId: row.branchId,
        facts: structuredClone(row.facts),
        storedState: row.state,
        consecutiveFaults: row.consecutiveFaults,
        lastViewedAt: row.lastViewedAt,
        dueAt: row.nextPollAt,
      })),
      pausedUntil: null,
      budgetSpentUntil: allowed < limit ? new Date(this.budget.windowStartedAt + 1_000) : null,
    };
  }

  async renewLeases({ owner, ids, now, leaseMs }: { owner: string; ids: string[]; now: Date; leaseMs: number }): Promise<string[]> {
    const held = ids.filter((id) => this.rows.get(id)?.leaseOwner === owner);
    for (const id of held) this.rows.get(id)!.leaseUntil = new Date(now.getTime() + leaseMs);
    return held;
  }

  async pauseCalls({ until, reason }: { until: Date; reason: string }): Promise<void> {
    if (!this.budget.pausedUntil || this.budget.pausedUntil < until) {
      this.budget.pausedUntil = until;
      this.budget.pauseReason = reason;
    }
  }

  async saveOutcome({ watched, owner, outcome }: { watched: WatchedToken; owner: string; outcome: PollOutcome; now: Date }): Promise<boolean> {
    const row = this.rows.get(watched.id);
    if (!row || row.leaseOwner !== owner) return false;
    row.facts = outcome.facts;
    row.state = outcome.state;
    row.consecutiveFaults = outcome.consecutiveFaults;
    row.nextPollAt = outcome.nextPollAt;
    row.leaseOwner = null;
    row.leaseUntil = null;
    row.events.push(...outcome.events);
    return true;
  }

  async nextDueAt(): Promise<Date | null> {
    const due = [...this.rows.values()]
      .filter((row) => row.nextPollAt !== null && !row.facts.closed)
      .map((row) => Math.max(row.nextPollAt!.getTime(), row.leaseUntil?.getTime() ?? 0));
    return due.length === 0 ? null : new Date(Math.min(...due));
  }

  async releaseLeases(owner: string): Promise<void> {
    for (const row of this.rows.values()) {
      if (row.leaseOwner === owner) {
        row.leaseOwner = null;
        row.leaseUntil = null;
      }
    }
  }
}
