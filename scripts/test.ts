/**
 * `npm test`: everything CI checks, in the order that fails fastest — lint, types, unit tests,
 * integration tests (real sandbox, real databases), then a production build driven end to end
 * by Playwright in Chromium.
 */
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { runToCompletion } from "./support/processes";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

ensureChromium();

const steps: Array<[label: string, command: string, args: string[]]> = [
  ["lint", "npx", ["eslint", ".", "--max-warnings", "0"]],
  ["type-check", "npx", ["tsc", "--noEmit"]],
  ["unit tests", "npx", ["vitest", "run", "--project", "unit"]],
  ["integration tests", "npx", ["vitest", "run", "--project", "integration"]],
  ["build", "npx", ["next", "build"]],
  ["end-to-end tests", "npx", ["playwright", "test"]],
  ["end-to-end tests (supervisor review, on demo data)", "env", ["E2E_SEED_DEMO=1", "npx", "playwright", "test"]],
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

/** Playwright drives the system Chromium; install it when we can, or say exactly what is missing. */
function ensureChromium(): void {
  if (existsSync(chromiumPath)) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.error(`Chromium is missing at ${chromiumPath}. Install it with: sudo apt-get install -y chromium`);
    process.exit(1);
  }
  console.log("Installing Chromium (apt-get install -y chromium)…");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit" });
}
