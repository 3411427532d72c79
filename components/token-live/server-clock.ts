"use client";

import { useEffect, useState } from "react";

/**
 * The server's time, as seen from a browser whose own clock may be wrong by hours. Each answer
 * of the server carries its `serverNow`; the offset between it and the browser's clock at the
 * moment the answer arrived is what the countdown adds to the browser's clock afterwards. A
 * browser clock set wrong moves both sides of that sum alike, so the remaining time stays right.
 */
export function computeClockOffset(serverNowIso: string, receivedAtBrowserMs: number): number {
  return Date.parse(serverNowIso) - receivedAtBrowserMs;
}

/**
 * The server's current time in ms, ticking every second. On the server and during hydration it is
 * exactly `serverNow` (so both renders print the same text); afterwards it follows the browser's
 * clock corrected by `offsetMs`.
 */
export function useServerNow(serverNowIso: string, offsetMs: number, tickMs = 1000): number {
  const [browserNow, setBrowserNow] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setBrowserNow(Date.now());
    update();
    const timer = setInterval(update, tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return browserNow === null ? Date.parse(serverNowIso) : browserNow + offsetMs;
}
