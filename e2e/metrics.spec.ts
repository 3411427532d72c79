import { expect, test } from "@playwright/test";
import { e2eMetricsToken } from "./support/metrics-token";
import { signInWithForm } from "@/e2e/support/auth";
import { issueFingerprintToken } from "@/e2e/support/live";
import { newCustomer } from "./support/customers";
import { demoAccount } from "@/lib/staff/demo-accounts";

/**
 * GET /api/metrics for Prometheus — only with the bearer token, the documented names,
 * and counters that move when a teller works (read before and after, so other specs' counts in
 * the same app do not matter). Nothing in it names a token or a customer.
 */

async function scrape(request: import("@playwright/test").APIRequestContext): Promise<string> {
  const response = await request.get("/api/metrics", { headers: { authorization: `Bearer ${e2eMetricsToken}` } });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/plain");
  return response.text();
}

function valueOf(text: string, series: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test("without the bearer token the metrics are refused, and a guess is refused the same way", async ({ request }) => {
  for (const authorization of [undefined, "Bearer wrong", `Bearer ${e2eMetricsToken}x`, `Basic ${e2eMetricsToken}`]) {
    const response = await request.get("/api/metrics", { headers: authorization ? { authorization } : {} });
    expect(response.status(), authorization ?? "no header").toBe(401);
    expect(await response.text()).not.toContain("veridesk_");
  }
});

test("the documented names are there, and issuing and a wrong password move their counters", async ({ request, page }) => {
  const before = await scrape(request);
  for (const name of [
    "veridesk_upstream_calls_total",
    "veridesk_upstream_call_duration_seconds",
    "veridesk_tokens_issued_total",
    "veridesk_tokens_finished_total",
    "veridesk_watcher_lag_seconds",
    "veridesk_watcher_polls_total",
    "veridesk_poll_route_duration_seconds",
    "veridesk_sign_in_failures_total",
  ]) {
    expect(before).toContain(`# TYPE ${name} `);
  }

  await signInWithForm(page, "teller.kumasi", "not the password");
  await expect(page.getByRole("alert")).toBeVisible();
  await signInWithForm(page, "teller.kumasi", demoAccount("teller.kumasi").password, { isOnSignInPage: true });
  await expect(page).toHaveURL("/");
  const { token } = await issueFingerprintToken(page, newCustomer());
  // The token page polls its route at least once.
  await page.waitForResponse((response) => response.url().includes("/api/tokens/"));

  const after = await scrape(request);
  const grew = (series: string) => valueOf(after, series) - valueOf(before, series);
  expect(grew('veridesk_sign_in_failures_total{reason="wrong_password"}')).toBeGreaterThanOrEqual(1);
  expect(grew('veridesk_tokens_issued_total{kind="fingerprint",outcome="issued"}')).toBe(1);
  expect(grew('veridesk_upstream_calls_total{endpoint="fingerprint_token",outcome="ok"}')).toBe(1);
  expect(grew('veridesk_upstream_call_duration_seconds_count{endpoint="fingerprint_token",outcome="ok"}')).toBe(1);
  expect(after).toMatch(/veridesk_poll_route_duration_seconds_count\{route="token",status="200"\} [1-9]/);
  expect(after).not.toContain(token);
});

test("the served app runs on the project's Node.js (24 or newer), and so does this test process", async ({ request }) => {
  const text = await scrape(request);
  // prom-client's default series: veridesk_nodejs_version_info{version="v24.22.3",major="24",…} 1
  const line = text.split("\n").find((candidate) => candidate.startsWith("veridesk_nodejs_version_info{"));
  expect(line, "veridesk_nodejs_version_info in /api/metrics").toBeDefined();
  const major = Number(/major="(\d+)"/.exec(line!)?.[1]);
  expect(major).toBeGreaterThanOrEqual(24);
  expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(24);
});
