import "server-only";
import { emptyThrottleState, type ThrottleState } from "./lockout";

/**
 * Bounds on what a signed-out stranger can make Veridesk write. Failed
 * sign-ins for usernames that belong to no account keep their lock-out state here, in memory, in
 * a bounded map (the table `sign_in_throttles` holds only real accounts, so it is bounded by the
 * staff list); they still lock exactly like real ones, so the answer never tells whether a
 * username exists. Their audit events pass a per-minute budget; over it, one summary event a
 * minute says how many were left out. A burst of random usernames thus grows no table without bound.
 */

export const UNKNOWN_USERNAMES_TRACKED_MAX = 10_000;

/** Lock-out state of usernames without an account, oldest-touched evicted first. */
export class BoundedThrottleMap {
  private readonly states = new Map<string, ThrottleState>();
  constructor(private readonly max = UNKNOWN_USERNAMES_TRACKED_MAX) {}

  get(username: string): ThrottleState {
    return this.states.get(username) ?? emptyThrottleState();
  }

  set(username: string, state: ThrottleState): void {
    this.states.delete(username);
    if (state.recentFailures.length === 0 && state.lockedUntil === null) return;
    this.states.set(username, state);
    if (this.states.size > this.max) this.states.delete(this.states.keys().next().value!);
  }

  delete(username: string): void {
    this.states.delete(username);
  }

  get size(): number {
    return this.states.size;
  }
}

export type BudgetTicket = {
  isAllowed: boolean;
  /** Set on the first event of a new window when the previous one left some out. */
  suppressedBefore?: { count: number; windowStartedAt: Date };
};

/** A fixed one-minute window budget on audit writes for signed-out failures of unknown usernames. */
export class AuditWriteBudget {
  private windowStartedAt = 0;
  private used = 0;
  private suppressed = 0;
  constructor(
    private readonly perWindow = 60,
    private readonly windowMs = 60_000,
  ) {}

  take(now: Date): BudgetTicket {
    const ticket: BudgetTicket = { isAllowed: false };
    if (now.getTime() - this.windowStartedAt >= this.windowMs) {
      if (this.suppressed > 0) ticket.suppressedBefore = { count: this.suppressed, windowStartedAt: new Date(this.windowStartedAt) };
      this.windowStartedAt = now.getTime();
      this.used = 0;
      this.suppressed = 0;
    }
    if (this.used < this.perWindow) {
      this.used += 1;
      ticket.isAllowed = true;
    } else {
      this.suppressed += 1;
    }
    return ticket;
  }
}
