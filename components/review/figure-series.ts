/**
 * The chart's series: the badges' state colours, as CSS variables whose values, light and dark,
 * are in app/globals.css; each is at least 4.5:1 on the card it is drawn on in both (the legend's
 * words are in it too), which components/ui/palette.test.ts checks.
 */
export const figureSeries = [
  { key: "successful", label: "Successful", color: "var(--color-series-successful)" },
  { key: "failed", label: "Failed", color: "var(--color-series-failed)" },
  { key: "expired", label: "Expired", color: "var(--color-series-expired)" },
  { key: "invalid", label: "Invalid", color: "var(--color-series-invalid)" },
  { key: "outcomeUnknown", label: "Outcome unknown", color: "var(--color-series-outcome-unknown)" },
  { key: "open", label: "Still open", color: "var(--color-series-open)" },
] as const;
