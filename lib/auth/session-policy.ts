/**
 * When a session ends: after SESSION_IDLE_MINUTES without a request, or SESSION_MAX_HOURS after
 * sign-in, whichever comes first. Pure, so the server check and its tests share it.
 */
export type SessionTimes = { createdAt: Date; lastActiveAt: Date };
export type SessionLimits = { idleMinutes: number; maxHours: number };

export type SessionStanding =
  | { isActive: true; idleExpiresAt: Date; absoluteExpiresAt: Date }
  | { isActive: false; reason: "idle" | "absolute"; idleExpiresAt: Date; absoluteExpiresAt: Date };

export function sessionStanding(times: SessionTimes, limits: SessionLimits, now: Date): SessionStanding {
  const idleExpiresAt = new Date(times.lastActiveAt.getTime() + limits.idleMinutes * 60_000);
  const absoluteExpiresAt = new Date(times.createdAt.getTime() + limits.maxHours * 3_600_000);
  if (now.getTime() >= absoluteExpiresAt.getTime()) return { isActive: false, reason: "absolute", idleExpiresAt, absoluteExpiresAt };
  if (now.getTime() >= idleExpiresAt.getTime()) return { isActive: false, reason: "idle", idleExpiresAt, absoluteExpiresAt };
  return { isActive: true, idleExpiresAt, absoluteExpiresAt };
}

/** Writing `last_active_at` on every request would be one write per poll; this much staleness is harmless. */
export const ACTIVITY_WRITE_INTERVAL_MS = 30_000;

export function shouldRecordActivity(lastActiveAt: Date, now: Date): boolean {
  return now.getTime() - lastActiveAt.getTime() >= ACTIVITY_WRITE_INTERVAL_MS;
}

/** The idle warning appears this long before the end. */
export const IDLE_WARNING_MS = 2 * 60_000;

/**
 * Any origin will do as the base: only whether `next` stays on it matters. A fixed one keeps this
 * pure (the browser resolves `next` against the real origin the same way).
 */
const RESOLVING_ORIGIN = "https://veridesk.invalid";

/**
 * The path to return to after sign-in: `next` only if the browser would stay on this origin.
 * It is resolved the way the browser resolves it (`new URL`, which drops tabs and newlines and
 * reads `\` as `/`) and compared by origin, with nothing stripped beforehand, so `/%09/evil.example`
 * and friends cannot pass as paths. The answer is the resolved path, never the raw text.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/")) return "/";
  let resolved: URL;
  try {
    resolved = new URL(next, RESOLVING_ORIGIN);
  } catch {
    return "/";
  }
  if (resolved.origin !== RESOLVING_ORIGIN) return "/";
  // `/.//evil.example` resolves on this origin to the path `//evil.example`, which a browser
  // given it as a Location would read as another host.
  if (resolved.pathname.startsWith("//") || resolved.pathname.startsWith("/\\")) return "/";
  if (resolved.pathname === "/sign-in" || resolved.pathname.startsWith("/sign-in/") || resolved.pathname.startsWith("/api/")) return "/";
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/** How long a session has left, as durations (for the browser, whose clock may be wrong). */
export function sessionTimeLeft(session: { idleExpiresAt: Date; absoluteExpiresAt: Date }, now: number = Date.now()) {
  return {
    idleRemainingMs: Math.max(0, session.idleExpiresAt.getTime() - now),
    absoluteRemainingMs: Math.max(0, session.absoluteExpiresAt.getTime() - now),
  };
}
