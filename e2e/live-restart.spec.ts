import { fingerprintWaitingLabel } from "@/lib/tokens/state";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { newCustomer } from "./support/customers";
import { signInWithForm } from "@/e2e/support/auth";
import { actOnScanner, issueFingerprintToken, LIVE_TIMEOUT } from "@/e2e/support/live";
import { addFault, clearFaults } from "./support/sandbox";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { nextServerGroupsOnPort } from "@/test/kit/server-processes";

/**
 * Stopping the app. Killed mid-token (SIGKILL: no goodbye, its watcher's lease and the embedded
 * database left as they were) while the customer finishes, then started again on the same
 * database, it picks the token up and the teller's page shows the result. Stopped with SIGTERM,
 * it finishes the poll under way and hands its leases back before exiting (ADR 0024). A second
 * app of its own, on its own port and embedded database, so the suite's app is never disturbed.
 */

const port = Number(process.env.E2E_APP_PORT ?? 3100) + 7;
const appUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "veridesk-e2e-restart-"));
// What the app's supervisor prints (the database preparation included), kept for a failure.
const superviseLog = path.join(dataDir, "serve-app.log");

function startApp(): ChildProcess {
  return spawn("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/serve-app.ts"], {
    detached: true,
    stdio: ["ignore", openSync(superviseLog, "a"), openSync(superviseLog, "a")],
    env: {
      ...process.env,
      APP_ENV: "test",
      PORT: String(port),
      APP_URL: appUrl,
      UPSTREAM_BASE_URL: process.env.SANDBOX_URL,
      PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
      SERVER_LOG_FILE: path.join(dataDir, "app.log"),
      E2E_SEED_DEMO: "",
    },
  });
}

/** Until the app answers; an app that ended instead is reported with what it printed. */
async function waitUntilServing(child: ChildProcess): Promise<void> {
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) {
          return `exited (${child.exitCode ?? child.signalCode}): ${readFileSync(superviseLog, "utf8").slice(-2_000)}`;
        }
        return (await fetch(`${appUrl}/sign-in`).catch(() => null))?.status ?? 0;
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(200);
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

let app: ChildProcess | undefined;

test.afterAll(async () => {
  if (app?.pid !== undefined && app.exitCode === null) {
    process.kill(-app.pid, "SIGTERM");
    await exited(app);
  }
});

test("a token issued before the app was killed gets its result after the restart", async ({ browser }) => {
  test.setTimeout(300_000);
  app = startApp();
  await waitUntilServing(app);
  const context = await browser.newContext({ baseURL: appUrl });
  const page = await context.newPage();
  await signInWithForm(page, "teller.kumasi", demoAccount("teller.kumasi").password);
  // The app's first sign-in: its auth instance and pages are still cold, on a machine under load.
  await expect(page).toHaveURL(`${appUrl}/`, { timeout: 30_000 });
  const { token } = await issueFingerprintToken(page, newCustomer());
  await expect(page.getByTestId("state-badge")).toHaveText(fingerprintWaitingLabel);

  // The server dies on the spot; its supervisor (serve-app) ends with it.
  const groups = nextServerGroupsOnPort(port);
  expect(groups).toHaveLength(1);
  process.kill(-groups[0]!, "SIGKILL");
  await exited(app);
  expect(nextServerGroupsOnPort(port)).toEqual([]);

  // Meanwhile the customer is verified at the scanner.
  await actOnScanner(browser, token, "SUCCESSFUL");

  app = startApp();
  await waitUntilServing(app);
  await page.reload();
  // Same session (it lives in the database), same token, now with its result.
  await expect(page.getByTestId("token-value")).toHaveText(token);
  await expect(page.getByTestId("state-badge")).toHaveText("Successful", { timeout: LIVE_TIMEOUT });
  await context.close();
});

test("SIGTERM: the app finishes the poll under way, hands back its leases and closes the database before it exits", async ({ browser }) => {
  test.setTimeout(300_000);
  if (app?.exitCode !== null || app.signalCode !== null) {
    app = startApp();
  }
  await waitUntilServing(app);
  const context = await browser.newContext({ baseURL: appUrl });
  const page = await context.newPage();
  await signInWithForm(page, "teller.kumasi", demoAccount("teller.kumasi").password);
  await expect(page).toHaveURL(`${appUrl}/`);
  const { token } = await issueFingerprintToken(page, newCustomer());
  // Its status calls now hang until their own 10 s timeout; polled every 3 s while its page is
  // open, within 4 s a poll is under way and stays so.
  await addFault({ mode: "hang", token, count: 100 });
  await page.waitForTimeout(4_000);

  const groups = nextServerGroupsOnPort(port);
  expect(groups).toHaveLength(1);
  const stoppedAt = Date.now();
  process.kill(-groups[0]!, "SIGTERM");
  await exited(app!);
  await context.close();
  await clearFaults();
  // Bounded by the poll's own timeout (10 s), never by a lease running out.
  expect(Date.now() - stoppedAt).toBeLessThan(20_000);

  const log = readFileSync(path.join(dataDir, "app.log"), "utf8");
  const lastStart = log.lastIndexOf('"msg":"token watcher started"');
  const afterStart = (message: string) => log.indexOf(`"msg":"${message}"`, lastStart);
  const steps = ["shutting down: finishing polls and requests", "token watcher stopped", "shutdown complete"].map(afterStart);
  expect(steps.every((at) => at > lastStart), `shutdown steps in the log: ${steps.join(", ")}`).toBe(true);
  expect([...steps].sort((a, b) => a - b)).toEqual(steps);
  expect(log).not.toContain("watcher could not hand back its leases");
  // The watcher's step waited for the hanging poll rather than cutting it off.
  const watcherStep = JSON.parse(log.slice(log.lastIndexOf("{", log.indexOf('"task":"token watcher"', lastStart))).split("\n")[0]!) as { ms: number };
  expect(watcherStep.ms).toBeGreaterThan(1_000);

  // No lease is left for another instance to wait out.
  const leased = execFileSync("node_modules/.bin/tsx", ["--conditions=react-server", "e2e/support/read-leases.ts", path.join(dataDir, "pglite")], { encoding: "utf8" });
  expect(JSON.parse(leased.trim().split("\n").pop()!)).toEqual([]);
});
