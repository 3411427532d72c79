/** Durations as a live token shows them. Times are lib/bank-time.ts's, the bank's one format. */

/** "MM:SS" of a duration, never negative; 15 minutes is "15:00". */
export function formatMinutesSeconds(milliseconds: number): string {
  const totalSeconds = Math.max(0, Math.ceil(milliseconds / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
}
