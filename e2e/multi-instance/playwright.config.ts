import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { renderNginxConfig } from "../../deploy/render-nginx";
import { chromiumLaunchOptions } from "../support/chromium";
import { instanceEnv, nginxAccessLog, nginxErrorLog, ports, publicUrl, sandboxUrl } from "./instances";

/**
 * The multi-instance end-to-end run: `npx playwright test -c e2e/multi-instance`.
 * A database of its own on the PostgreSQL of TEST_DATABASE_URL (scripts/ci-postgres.sh), the
 * sandbox, instance A, and nginx in front (rendered from deploy/nginx with a self-signed
 * certificate); the spec starts instance B itself. Prepared once, in the main process: the
 * workers inherit the environment set here and skip it.
 */
const nginxPath = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
// Web servers start in the configuration's folder unless told otherwise.
const repoRoot = path.resolve(import.meta.dirname, "..", "..");

if (!process.env.E2E_MULTI_DIR) {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  if (!ownerUrl) {
    throw new Error("The multi-instance run needs PostgreSQL: set TEST_DATABASE_URL (and TEST_APP_DATABASE_URL), e.g. from `bash scripts/ci-postgres.sh`.");
  }
  const dir = mkdtempSync(path.join(tmpdir(), "veridesk-multi-"));
  // nginx's workers run as an unprivileged user and keep their temporary files under this prefix.
  chmodSync(dir, 0o755);
  const database = `veridesk_multi_${Date.now()}`;
  const psql = (sql: string) => execFileSync("psql", [ownerUrl, "-v", "ON_ERROR_STOP=1", "-qAtc", sql], { encoding: "utf8" });
  // Databases of earlier runs on this machine go first.
  for (const old of psql("SELECT datname FROM pg_database WHERE datname LIKE 'veridesk_multi_%'").split("\n").filter(Boolean)) {
    psql(`DROP DATABASE IF EXISTS "${old}" WITH (FORCE)`);
  }
  psql(`CREATE DATABASE "${database}"`);

  const certificate = path.join(dir, "tls.pem");
  const certificateKey = path.join(dir, "tls.key");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", certificateKey, "-out", certificate,
  ], { stdio: "ignore" });

  Object.assign(process.env, {
    E2E_MULTI_DIR: dir,
    E2E_MULTI_DATABASE: database,
    E2E_MULTI_AUTH_SECRET: randomBytes(32).toString("base64"),
    E2E_MULTI_PII_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    E2E_MULTI_PII_INDEX_KEY: randomBytes(32).toString("base64"),
  });

  const snippet = renderNginxConfig({
    instances: [`127.0.0.1:${ports.instanceA}`, `127.0.0.1:${ports.instanceB}`],
    listen: `127.0.0.1:${ports.nginx}`,
    serverName: "127.0.0.1",
    certificate,
    certificateKey,
    accessLog: nginxAccessLog(),
  });
  writeFileSync(path.join(dir, "veridesk.conf"), snippet);
  writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      "worker_processes 1;",
      `pid ${path.join(dir, "nginx.pid")};`,
      "events { worker_connections 512; }",
      `http { include ${path.join(dir, "veridesk.conf")}; }`,
      "",
    ].join("\n"),
  );
}

// The fixtures and helpers shared with the main run read these.
process.env.APP_URL = publicUrl;
process.env.SANDBOX_URL = sandboxUrl;
const dir = process.env.E2E_MULTI_DIR!;

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: path.join(repoRoot, "test-results", `e2e-multi-${ports.nginx}`),
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    baseURL: publicUrl,
    ignoreHTTPSErrors: true,
    // No trace, as in the main suite (ADR 0040: recording one for every test cost a sixth of the
    // CPU); to step through a failure, run this configuration with `--trace on`.
    trace: "off",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    viewport: { width: 1280, height: 800 },
    // Spinners stand still, as in the main suite (playwright.config.ts says why).
    reducedMotion: "reduce",
    launchOptions: chromiumLaunchOptions,
  },
  webServer: [
    {
      name: "sandbox",
      command: "node_modules/.bin/tsx sandbox/server.ts",
      cwd: repoRoot,
      url: `${sandboxUrl}/sandbox/api/clock`,
      env: { SANDBOX_PORT: String(ports.sandbox) },
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    },
    {
      // Migrates (as the owner, under the advisory lock) and seeds the demo staff; B finds it done.
      name: "instance A",
      command: "node_modules/.bin/tsx --conditions=react-server scripts/serve-app.ts",
      cwd: repoRoot,
      url: `http://127.0.0.1:${ports.instanceA}/api/health/ready`,
      env: instanceEnv("A"),
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    },
    {
      name: "nginx",
      command: `${nginxPath} -p ${dir}/ -c ${path.join(dir, "nginx.conf")} -e ${nginxErrorLog()} -g "daemon off;"`,
      url: `${publicUrl}/api/health/ready`,
      ignoreHTTPSErrors: true,
      reuseExistingServer: false,
      timeout: 15_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    },
  ],
});

