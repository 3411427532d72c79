import type { IssuedTokenFacts, TokenStateName } from "@/lib/tokens/state";
import type { PollOutcome, TokenEventDraft, WatchedToken, WatcherStore } from "./types";

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
};

export class MemoryWatcherStore implements WatcherStore {
  readonly rows = new Map<string, MemoryRow>();

  add(row: Pick<MemoryRow, "id" | "token" | "facts"> & Partial<MemoryRow>): MemoryRow {
    const full: MemoryRow = {
      branchId: null,
      consecutiveFaults: 0,
      nextPollAt: row.facts.issuedAt,
      leaseOwner: null,
      leaseUntil: null,
      state: "waiting",
      events: [],
      ...row,
    };
    this.rows.set(full.id, full);
    return full;
  }

  async leaseDue({ owner, now, leaseMs, limit }: { owner: string; now: Date; leaseMs: number; limit: number }): Promise<WatchedToken[]> {
    const due = [...this.rows.values()]
      .filter((row) => row.nextPollAt !== null && row.nextPollAt <= now && !row.facts.closed)
      .filter((row) => row.leaseUntil === null || row.leaseUntil < now)
      .sort((a, b) => a.nextPollAt!.getTime() - b.nextPollAt!.getTime())
      .slice(0, limit);
    for (const row of due) {
      row.leaseOwner = owner;
      row.leaseUntil = new Date(now.getTime() + leaseMs);
    }
    return due.map((row) => ({
      id: row.id,
      token: row.token,
      branchId: row.branchId,
      facts: structuredClone(row.facts),
      storedState: row.state,
      consecutiveFaults: row.consecutiveFaults,
    }));
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
      .map((row) => row.nextPollAt!.getTime());
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
