/**
 * How review screens write durations, rates and counts. Dates and times are lib/bank-time.ts's.
 * Plain functions, safe in client components.
 */

/** 95 → "1 min 35 s"; 3 725 → "1 h 2 min". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** 0.8734 → "87.3 %"; null → "—". */
export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${(rate * 100).toFixed(1)} %`;
}

export function formatCount(value: number): string {
  return value.toLocaleString("en-GB");
}
