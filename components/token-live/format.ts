import { formatDateTime as formatBankDateTime, formatTime as formatBankTime } from "@/lib/bank-time";

/**
 * Times as the branch reads them, in the bank's one format (lib/bank-time.ts). Shared by server and
 * client components (no directive), so a slip printed from the server and a page ticking in the
 * browser print the same text.
 */

/** Bank time of day with seconds, e.g. "09:42:13": a live token is a matter of minutes. */
export function formatTime(iso: string): string {
  return formatBankTime(iso, { seconds: true });
}

/** "24 Nov 2026, 14:05". */
export function formatDateTime(iso: string): string {
  return formatBankDateTime(iso);
}

/** "MM:SS" of a duration, never negative; 15 minutes is "15:00". */
export function formatMinutesSeconds(milliseconds: number): string {
  const totalSeconds = Math.max(0, Math.ceil(milliseconds / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
}
