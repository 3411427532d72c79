import { expect, test } from "@playwright/test";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { signInByApi } from "@/e2e/support/auth";
import { readServerLog } from "./support/privacy";

/** What the running app does for its operators without being asked. */

test("the app vacuums its embedded database soon after start (PGlite has no autovacuum)", async () => {
  await expect
    .poll(() => readServerLog().split("\n").some((line) => line.includes('"msg":"embedded database vacuumed"')), { timeout: 60_000, intervals: [1_000] })
    .toBe(true);
});

test("liveness and readiness answer without a session, name their checks and hold nothing sensitive", async ({ request }) => {
  const live = await request.get("/api/health/live");
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: "live" });

  // The watcher has looked for due tokens by now (the app has served every spec before this one or has just started).
  await expect.poll(async () => (await request.get("/api/health/ready")).status(), { timeout: 30_000, intervals: [1_000] }).toBe(200);
  const ready = await request.get("/api/health/ready");
  expect(ready.headers()["cache-control"]).toBe("no-store");
  const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean; detail: string }> };
  expect(body.status).toBe("ready");
  expect(Object.keys(body.checks).sort()).toEqual(["database", "disk", "draining", "migrations", "recording", "watcher", "writes"]);
  expect(Object.values(body.checks).every((check) => check.ok)).toBe(true);
  expect(body.checks.migrations?.detail).toBe("current");
  const text = JSON.stringify(body);
  for (const secret of ["sandbox", "veridesk-local-only-secret", "pglite", "postgres://", "127.0.0.1", process.env.E2E_DATA_DIR!]) {
    expect(text, `readiness names ${secret}`).not.toContain(secret);
  }
});

test("an administrator's Operations page lists this instance as running, from its heartbeat", async ({ browser }) => {
  const context = await browser.newContext({ storageState: await signInByApi("admin", demoAccount("admin").password) });
  const page = await context.newPage();
  await page.goto("/admin/operations");
  const instances = page.getByTestId("instances");
  await expect(instances.getByRole("heading", { name: "Instances" })).toBeVisible();
  const thisOne = instances.getByRole("row").filter({ hasText: "(this one)" });
  await expect(thisOne).toHaveCount(1);
  await expect(thisOne).toHaveAttribute("data-status", "running");
  await expect(thisOne).toContainText(/Running.*s ago.*runs it/);
  await context.close();
});
