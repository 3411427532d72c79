/** Prometheus's bearer token in the end-to-end app (playwright.config.ts sets it, e2e/metrics.spec.ts sends it). */
export const e2eMetricsToken = "e2e-metrics-token-not-a-secret-0123456789";
