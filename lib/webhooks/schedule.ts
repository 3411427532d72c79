/**
 * When a failed delivery is tried again: 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h, for about
 * three days (the first attempt goes at once). Each wait moves by up to a tenth either way, so a
 * receiver that comes back is not hit by every retry at the same second.
 */
const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, ...Array<number>(7).fill(10 * 3_600_000)];

/** How many attempts a delivery gets before it is marked failed (about three days in all). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Five days of nothing but failures disable an endpoint. */
export const FAILING_ENDPOINT_DISABLED_AFTER_MS = 5 * 24 * 3_600_000;

/** The next attempt after `attempts` failed ones, or null when the delivery has had them all. */
export function nextAttemptAt(attempts: number, now: Date, random: () => number = Math.random): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return null;
  const jitter = 1 + (random() * 2 - 1) * 0.1;
  return new Date(now.getTime() + Math.round(delay * jitter));
}
