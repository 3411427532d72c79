"use client";

import dynamic from "next/dynamic";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import type { SignOutAction } from "./sign-out-button";

// The dialog (and Radix with it, 12 kB) is on no page's first load: every signed-in page has this
// guard, and the dialog shows two minutes before a session ends. It is fetched once the page has
// settled, so it is at hand when due even if the network is gone by then.
const loadIdleWarningDialog = () => import("./idle-warning-dialog").then((module) => module.IdleWarningDialog);
const IdleWarningDialog = dynamic(loadIdleWarningDialog, { ssr: false });
const PRELOAD_AFTER_MS = 5_000;

/**
 * Warns two minutes before the session ends and offers "Stay signed in". The server decides
 * (lib/auth/session.ts); this only mirrors it. Before warning and before leaving, it asks the
 * server how much time is really left — another tab may have been active meanwhile — and it
 * works with durations, so a wrong clock on the counter PC changes nothing.
 */
const WARNING_MS = 2 * 60_000;

type Remaining = { idleRemainingMs: number; absoluteRemainingMs: number };
type Deadlines = { idle: number; absolute: number };

const toDeadlines = (remaining: Remaining): Deadlines => ({
  idle: Date.now() + remaining.idleRemainingMs,
  absolute: Date.now() + remaining.absoluteRemainingMs,
});

async function askServer(method: "GET" | "POST"): Promise<Remaining | null> {
  try {
    const response = await fetch("/api/auth/session", { method, cache: "no-store", credentials: "same-origin" });
    if (response.status === 401) return null;
    if (!response.ok) throw new Error(String(response.status));
    return (await response.json()) as Remaining;
  } catch {
    // Offline for a moment: keep the current view rather than signing out on a network blip.
    return { idleRemainingMs: WARNING_MS, absoluteRemainingMs: WARNING_MS * 10 };
  }
}

function formatMinutesSeconds(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export function IdleSessionGuard({
  initial,
  idleMinutes,
  signOutAction,
}: {
  initial: Remaining;
  idleMinutes: number;
  signOutAction: SignOutAction;
}) {
  const pathname = usePathname();
  const [deadlines, setDeadlines] = useState<Deadlines>(() => toDeadlines(initial));
  const [now, setNow] = useState(() => Date.now());
  const [warning, setWarning] = useState<"idle" | "absolute" | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const isAsking = useRef(false);
  const isFirstPath = useRef(true);

  const leave = useCallback(async (reason: "idle" | "absolute") => {
    await signOutAction({ reason }).catch(() => undefined);
    const next = `${window.location.pathname}${window.location.search}`;
    // A full page load drops everything the tab held in memory (customer data included).
    window.location.replace(`/sign-in?reason=${reason}&next=${encodeURIComponent(next)}`);
  }, [signOutAction]);

  // A page load in the app is activity the server counted.
  useEffect(() => {
    if (isFirstPath.current) {
      isFirstPath.current = false;
      return;
    }
    setDeadlines((current) => ({ ...current, idle: Date.now() + idleMinutes * 60_000 }));
  }, [pathname, idleMinutes]);

  useEffect(() => {
    const preload = window.setTimeout(() => void loadIdleWarningDialog(), PRELOAD_AFTER_MS);
    return () => window.clearTimeout(preload);
  }, []);

  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    // Says the watch is running (end-to-end tests wait for it before moving their fake clock).
    document.body.dataset.sessionGuard = "watching";
    return () => {
      window.clearInterval(timer);
      delete document.body.dataset.sessionGuard;
    };
  }, []);

  const endsAt = Math.min(deadlines.idle, deadlines.absolute);
  const remainingMs = endsAt - now;

  useEffect(() => {
    const isDue = warning ? remainingMs <= 0 : remainingMs <= WARNING_MS;
    if (!isDue || isAsking.current) return;
    isAsking.current = true;
    void askServer("GET").then((remaining) => {
      isAsking.current = false;
      const kind = deadlines.absolute <= deadlines.idle ? "absolute" : "idle";
      if (!remaining || Math.min(remaining.idleRemainingMs, remaining.absoluteRemainingMs) <= 0) {
        void leave(kind);
        return;
      }
      const fresh = toDeadlines(remaining);
      setDeadlines(fresh);
      const freshRemaining = Math.min(fresh.idle, fresh.absolute) - Date.now();
      setWarning(freshRemaining <= WARNING_MS ? (fresh.absolute <= fresh.idle ? "absolute" : "idle") : null);
    });
  }, [remainingMs, warning, deadlines, leave]);

  const staySignedIn = async () => {
    setIsBusy(true);
    const remaining = await askServer("POST");
    setIsBusy(false);
    if (!remaining) return leave("idle");
    setDeadlines(toDeadlines(remaining));
    setWarning(null);
  };

  if (warning === null) return null;
  return (
    <IdleWarningDialog
      warning={warning}
      countdown={formatMinutesSeconds(remainingMs)}
      isBusy={isBusy}
      onLeave={() => void leave(warning)}
      onStay={staySignedIn}
      onAcknowledge={() => setWarning(null)}
    />
  );
}
