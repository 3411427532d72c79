"use client";

import { Timer, TimerOff } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { formatMinutesSeconds } from "./format";
import { useServerNow } from "./server-clock";

/** The last 3 minutes are shown in amber: time to tell the customer to hurry, or to start again. */
export const HURRY_MS = 3 * 60_000;

/** Remaining times a screen reader hears about; every second would drown everything else. */
const announcedMilestonesMs = [10, 5, 3, 2, 1].map((minutes) => minutes * 60_000).concat(30_000, 0);

type CountdownProps = {
  expiresAt: string;
  /** The server's time when the data was built, and the server/browser offset measured then. */
  serverNow: string;
  offsetMs: number;
  size?: "lg" | "sm";
  className?: string;
};

/**
 * The 15-minute countdown, from the server's `expiresAt` and the server's time: MM:SS, amber in
 * the last 3 minutes, "Expired" at zero (the watcher confirms the state itself). Screen readers hear
 * the milestones only (10, 5, 3, 2, 1 minutes, 30 seconds, expired).
 */
export function Countdown({ expiresAt, serverNow, offsetMs, size = "lg", className }: CountdownProps) {
  const now = useServerNow(serverNow, offsetMs);
  const remainingMs = Date.parse(expiresAt) - now;
  const isOver = remainingMs <= 0;
  const isHurry = !isOver && remainingMs <= HURRY_MS;
  const announcement = useMilestoneAnnouncement(remainingMs);
  const Icon = isOver ? TimerOff : Timer;

  return (
    <div
      className={cn(
        "inline-flex items-center gap-2 font-mono font-bold tabular-nums",
        size === "lg" ? "text-5xl" : "text-lg",
        isOver ? "text-ink-subtle" : isHurry ? "text-warning-600" : "text-ink",
        className,
      )}
      data-testid="countdown"
      data-hurry={isHurry || undefined}
    >
      <Icon aria-hidden className={size === "lg" ? "size-9" : "size-4"} />
      {/* role=timer is not announced on each change; the milestones below are. */}
      <span role="timer" aria-label={isOver ? "Time to start is over" : `Time left: ${describeRemaining(remainingMs)}`} suppressHydrationWarning>
        {formatMinutesSeconds(remainingMs)}
      </span>
      {isHurry && size === "lg" ? <span className="font-sans text-base font-semibold">Hurry</span> : null}
      <span aria-live="polite" className="sr-only">
        {announcement}
      </span>
    </div>
  );
}

function useMilestoneAnnouncement(remainingMs: number): string {
  const milestone = announcedMilestonesMs.find((threshold) => remainingMs <= threshold) ?? null;
  const previous = useRef<number | null | undefined>(undefined);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    // The first value is where the page starts, not a change worth announcing.
    if (previous.current !== undefined && previous.current !== milestone && milestone !== null) {
      setAnnouncement(milestone === 0 ? "The token has expired." : `${describeRemaining(milestone)} left.`);
    }
    previous.current = milestone;
  }, [milestone]);
  return announcement;
}

function describeRemaining(milliseconds: number): string {
  const totalSeconds = Math.max(0, Math.ceil(milliseconds / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  if (minutes === 0) return `${seconds} seconds`;
  if (seconds === 0) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  return `${minutes} min ${seconds} s`;
}
