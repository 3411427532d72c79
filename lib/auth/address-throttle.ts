/**
 * The per-address limit on password spraying (ADR 0039): from one address (an IPv4 address, an
 * IPv6 /64; client-ip.ts), at most `maxUsernames` different usernames may have a password checked
 * in `windowMs`. Spraying tries one password on many usernames, which the per-username lock-out
 * never sees; a branch's counters behind one address fail on a handful of usernames at most.
 *
 * Like the lock-out, a username is counted when its attempt is CLAIMED, before the password is
 * checked, and the claim is one synchronous step on the map, so a parallel burst gets no more
 * checks than a slow one. A sign-in that succeeds gives its username's place back: staff who
 * mistype and then get it right never fill the window. The map is in memory and bounded (a
 * stranger's addresses write nothing); each instance keeps its own, so N instances allow N times
 * the limit, still a bound.
 */

export const addressPolicy = {
  maxUsernames: 20,
  windowMs: 15 * 60_000,
  /** Addresses tracked at once; the least recently claimed is dropped first. */
  maxAddresses: 10_000,
} as const;

export type AddressPolicy = { maxUsernames: number; windowMs: number; maxAddresses: number };

export const ADDRESS_LIMITED_MESSAGE =
  "Too many failed sign-ins from this network. Sign-in from here is paused for up to 15 minutes — ask your supervisor if you need help now.";

export type AddressClaim = { isAllowed: true } | { isAllowed: false; retryAt: Date };

export class AddressThrottle {
  /** Per address bucket: username → when it was last claimed. */
  private readonly claims = new Map<string, Map<string, number>>();

  constructor(private readonly policy: AddressPolicy = addressPolicy) {}

  /** Before a password is checked: counts the username for the address, or refuses (the window is full). */
  claim(bucket: string, username: string, now: Date): AddressClaim {
    const at = now.getTime();
    const usernames = this.liveClaims(bucket, at);
    if (!usernames.has(username) && usernames.size >= this.policy.maxUsernames) {
      const oldest = Math.min(...usernames.values());
      return { isAllowed: false, retryAt: new Date(oldest + this.policy.windowMs) };
    }
    usernames.set(username, at);
    // Most recently claimed last, so the first key is the one to drop.
    this.claims.delete(bucket);
    this.claims.set(bucket, usernames);
    if (this.claims.size > this.policy.maxAddresses) this.claims.delete(this.claims.keys().next().value!);
    return { isAllowed: true };
  }

  /** The password was right: not a guess, so the username gives its place back. */
  release(bucket: string, username: string): void {
    const usernames = this.claims.get(bucket);
    if (!usernames) return;
    usernames.delete(username);
    if (usernames.size === 0) this.claims.delete(bucket);
  }

  get addressCount(): number {
    return this.claims.size;
  }

  private liveClaims(bucket: string, at: number): Map<string, number> {
    const usernames = this.claims.get(bucket) ?? new Map<string, number>();
    for (const [username, claimedAt] of usernames) if (claimedAt <= at - this.policy.windowMs) usernames.delete(username);
    return usernames;
  }
}
