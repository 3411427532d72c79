import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/support/chromium";
import { e2eMetricsToken } from "./e2e/support/metrics-token";

/**
 * End-to-end runs start their own sandbox and a built app (`next build` first; `npm test` does
 * it) on a fresh embedded database, so a run never depends on, or disturbs, a developer's data.
 * Workers inherit process.env from this main process, so values set here reach the tests.
 */
const appPort = Number(process.env.E2E_APP_PORT ?? 3100);
const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 4100);
const upstreamBaseUrl = `http://127.0.0.1:${sandboxPort}`;

assertLoopback(upstreamBaseUrl);

process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "veridesk-e2e-"));
process.env.APP_URL = `http://127.0.0.1:${appPort}`;
process.env.SANDBOX_URL = upstreamBaseUrl;
process.env.E2E_SERVER_LOG ??= path.join(process.env.E2E_DATA_DIR, "app.log");

/**
 * Two suites, each against its own fresh app: the review specs need 30 days of demo tokens
 * (`E2E_SEED_DEMO=1`), which would crowd the teller dashboards the other specs look at.
 */
const isReviewSuite = process.env.E2E_SEED_DEMO === "1";

/**
 * The main suite's specs share one app, sandbox and clock and run one at a time (a spec may inject
 * a fault, stop the provider or count its calls). `npm test` runs it as two halves side by side,
 * each with its own app, sandbox and database on its own ports (`E2E_HALF=1` or `2`), so the
 * isolation is the same and the two cores are both used. Half 2 is these long specs (the single
 * sign-on spec starts an app and a provider of its own) and the integration screens (API keys,
 * webhooks, risk cases), about as long as all the others together; a new spec goes to half 1
 * unless the halves' times in the summary say otherwise. Without `E2E_HALF`, both halves run.
 */
const SECOND_HALF = [
  "screens.spec.ts",
  "live-viewers.spec.ts",
  "live-provider.spec.ts",
  "sso-sign-in.spec.ts",
  "api-keys.spec.ts",
  "webhooks-admin.spec.ts",
  "risk-cases.spec.ts",
];
const half = process.env.E2E_HALF;
if (half !== undefined && half !== "1" && half !== "2") throw new Error(`E2E_HALF must be 1 or 2, not "${half}"`);

function mainSuiteIgnores(): string[] {
  const always = ["**/review-*.spec.ts", "**/multi-instance/**"];
  if (half === "1") return [...always, ...SECOND_HALF.map((file) => `**/${file}`)];
  return always;
}

export default defineConfig({
  testDir: "./e2e",
  testMatch: isReviewSuite ? "review-*.spec.ts" : half === "2" ? SECOND_HALF : "*.spec.ts",
  // The multi-instance run has a configuration of its own (e2e/multi-instance/playwright.config.ts).
  testIgnore: isReviewSuite ? ["**/multi-instance/**"] : mainSuiteIgnores(),
  // One output folder per port pair, so two runs side by side never delete each other's traces.
  outputDir: `test-results/e2e-${appPort}${isReviewSuite ? "-review" : ""}`,
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: process.env.APP_URL,
    // No trace: recording one for every test cost a sixth of the suite's CPU (ADR 0040). A failed
    // test leaves its screenshot and the page's accessibility tree (error-context.md); to step
    // through one, run its spec alone with `--trace on`.
    trace: "off",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    viewport: { width: 1280, height: 800 },
    // The pages' spinners stand still (their `motion-reduce:` style): a spinning icon redraws its
    // page 60 times a second, which cost the browser a twentieth of a core per page the whole
    // time a token waits (twenty viewers in live-viewers, every pending token's page). Nothing a
    // spec checks moves; contexts a spec opens itself (`browser.newContext`) get this too.
    reducedMotion: "reduce",
    launchOptions: chromiumLaunchOptions,
  },
  webServer: [
    {
      name: "sandbox",
      command: "node_modules/.bin/tsx sandbox/server.ts",
      url: `${upstreamBaseUrl}/sandbox/api/clock`,
      env: { SANDBOX_PORT: String(sandboxPort) },
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    },
    {
      name: "app",
      command: "node_modules/.bin/tsx --conditions=react-server scripts/serve-app.ts",
      url: `${process.env.APP_URL}/sign-in`,
      env: {
        APP_ENV: "test",
        PORT: String(appPort),
        APP_URL: process.env.APP_URL,
        UPSTREAM_BASE_URL: upstreamBaseUrl,
        PGLITE_DATA_DIR: path.join(process.env.E2E_DATA_DIR, "pglite"),
        // Shorter than production's 30 s so the specs of a provider that never answers an issuing
        // call do not wait half a minute each; the slow-answer spec stays well inside it.
        UPSTREAM_ISSUE_TIMEOUT_MS: "12000",
        SERVER_LOG_FILE: process.env.E2E_SERVER_LOG,
        METRICS_TOKEN: e2eMetricsToken,
      },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      // serve-app stops its own `next start` on SIGTERM; a bare SIGKILL would orphan it.
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    },
  ],
});

/** The tests drive fault injection and fake outcomes: they must never reach a real service. */
function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "[::1]"].includes(host)) {
    throw new Error(`Refusing to run end-to-end tests against a non-loopback service: ${host}`);
  }
}
