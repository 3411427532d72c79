/**
 * Failed passkey sign-ins per client address (a /64 for IPv6), in a fixed window per address.
 * A passkey cannot be guessed, so this is not a lock-out: it stops one address from making the
 * server check (and the audit trail record) assertion after assertion. In memory, per instance,
 * bounded; better-auth's per-IP rate limit bounds the requests themselves.
 */
export const PASSKEY_FAILURES_PER_WINDOW = 20;
export const PASSKEY_FAILURE_WINDOW_MS = 15 * 60_000;
const TRACKED_ADDRESSES_MAX = 10_000;

export class PasskeyFailureCount {
  private readonly windows = new Map<string, { startedAt: number; failures: number }>();

  constructor(
    private readonly perWindow = PASSKEY_FAILURES_PER_WINDOW,
    private readonly windowMs = PASSKEY_FAILURE_WINDOW_MS,
  ) {}

  /** Whether this address is over its failures; the time its window ends if so. */
  limitOf(bucket: string, now: Date): { isLimited: boolean; retryAt?: Date } {
    const window = this.windows.get(bucket);
    if (!window || now.getTime() - window.startedAt >= this.windowMs) return { isLimited: false };
    if (window.failures < this.perWindow) return { isLimited: false };
    return { isLimited: true, retryAt: new Date(window.startedAt + this.windowMs) };
  }

  /** Counts one failure; true when it is the one that reached the limit. */
  countFailure(bucket: string, now: Date): boolean {
    let window = this.windows.get(bucket);
    if (!window || now.getTime() - window.startedAt >= this.windowMs) {
      if (!window && this.windows.size >= TRACKED_ADDRESSES_MAX) this.windows.clear();
      window = { startedAt: now.getTime(), failures: 0 };
      this.windows.set(bucket, window);
    }
    window.failures += 1;
    return window.failures === this.perWindow;
  }
}
