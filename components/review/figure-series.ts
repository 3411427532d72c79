/**
 * The chart's series: the badges' state colours, each at least 4.5:1 on white (the old grey of
 * Expired was 3.1:1); figure-series.test.ts checks every one.
 */
export const figureSeries = [
  { key: "successful", label: "Successful", color: "#1d7a3a" },
  { key: "failed", label: "Failed", color: "#b42323" },
  { key: "expired", label: "Expired", color: "#5f6b76" },
  { key: "invalid", label: "Invalid", color: "#5c1212" },
  { key: "outcomeUnknown", label: "Outcome unknown", color: "#a15c00" },
  { key: "open", label: "Still open", color: "#1f5fbf" },
] as const;
