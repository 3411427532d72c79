/**
 * `npm test`: everything CI checks, in the order that fails fastest — lint, types, unit tests,
 * integration tests (real sandbox, real databases), then a production build (each page's
 * first-load JS within its budget) driven end to end by Playwright in Chromium.
 */
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { runToCompletion } from "./support/processes";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const nginxPath = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

ensureSystemPackage("Chromium", chromiumPath, "chromium");
ensureSystemPackage("nginx", nginxPath, "nginx");
ensurePostgres();

const steps: Array<[label: string, command: string, args: string[]]> = [
  ["lint", "npx", ["eslint", ".", "--max-warnings", "0"]],
  ["type-check", "npx", ["tsc", "--noEmit"]],
  ["unit tests", "npx", ["vitest", "run", "--project", "unit"]],
  ["integration tests", "npx", ["vitest", "run", "--project", "integration"]],
  ["build", "npx", ["next", "build"]],
  ["first-load JS budget", "npx", ["tsx", "scripts/bundle-budget.ts"]],
  ["end-to-end tests", "npx", ["playwright", "test"]],
  ["end-to-end tests (supervisor review, on demo data)", "env", ["E2E_SEED_DEMO=1", "npx", "playwright", "test"]],
  ["end-to-end tests (two instances behind nginx, on PostgreSQL)", "npx", ["playwright", "test", "-c", "e2e/multi-instance"]],
];

const timings: string[] = [];
for (const [label, command, args] of steps) {
  console.log(`\n▶ ${label}`);
  const startedAt = Date.now();
  try {
    await runToCompletion(command, args);
  } catch (error) {
    console.error(`\n✖ ${label} failed: ${(error as Error).message}`);
    process.exit(1);
  }
  timings.push(`${label}: ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}
console.log(`\n✔ all checks passed\n  ${timings.join("\n  ")}`);

/**
 * The end-to-end runs drive the system Chromium and put the system nginx in front of two
 * instances: install them when we can (as root, from Debian), or say exactly what is missing.
 */
function ensureSystemPackage(name: string, binaryPath: string, debianPackage: string): void {
  if (existsSync(binaryPath)) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.error(`${name} is missing at ${binaryPath}. Install it with: sudo apt-get install -y ${debianPackage}`);
    process.exit(1);
  }
  console.log(`Installing ${name} (apt-get install -y ${debianPackage})…`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${debianPackage}`, { stdio: "inherit" });
}

/**
 * The integration suite and the multi-instance run need a real PostgreSQL (TEST_DATABASE_URL,
 * TEST_APP_DATABASE_URL). When none is given, scripts/ci-postgres.sh installs and starts one.
 */
function ensurePostgres(): void {
  if (process.env.TEST_DATABASE_URL) return;
  console.log("Starting PostgreSQL for the tests (scripts/ci-postgres.sh)…");
  const lines = execSync("bash scripts/ci-postgres.sh", { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  for (const line of lines.split("\n").filter(Boolean)) {
    const separator = line.indexOf("=");
    process.env[line.slice(0, separator)] = line.slice(separator + 1);
  }
}
