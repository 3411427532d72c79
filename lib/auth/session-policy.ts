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

/** A path is safe to return to after sign-in only if it is a local path (no open redirect). */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (next.startsWith("/sign-in") || next.startsWith("/api/")) return "/";
  return next;
}

/** How long a session has left, as durations (for the browser, whose clock may be wrong). */
export function sessionTimeLeft(session: { idleExpiresAt: Date; absoluteExpiresAt: Date }, now: number = Date.now()) {
  return {
    idleRemainingMs: Math.max(0, session.idleExpiresAt.getTime() - now),
    absoluteRemainingMs: Math.max(0, session.absoluteExpiresAt.getTime() - now),
  };
}
