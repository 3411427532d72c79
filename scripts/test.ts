/**
 * `npm test`: everything CI checks, in phases that fail fastest first — lint, types and unit tests;
 * then the integration tests (real sandbox, real databases) beside a production build (each page's
 * first-load JS within its budget); then the three end-to-end runs in Chromium, each against its
 * own app, sandbox and database.
 *
 * Stages of one phase run at the same time (lint, types and unit tests are independent; the
 * integration tests wait on real processes while the build computes), so the phases end sooner than
 * their stages one after another would. Each stage writes to its own log under
 * test-results/npm-test/, printed once when the stage ends, so the output of parallel stages never
 * interleaves; the first failure stops the rest.
 */
import { execSync, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const nginxPath = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

ensureSystemPackage("Chromium", chromiumPath, "chromium");
ensureSystemPackage("nginx", nginxPath, "nginx");
ensurePostgres();
// A bank's test run sends nothing to Next's telemetry either.
process.env.NEXT_TELEMETRY_DISABLED = "1";

type Stage = { label: string; command: string; args: string[]; env?: Record<string, string> };

/** Each phase's stages run together; a stage's list of follow-ups runs after it within the phase. */
type Phase = Array<Stage | Stage[]>;

const phases: Phase[] = [
  [
    { label: "lint", command: "npm", args: ["run", "--silent", "lint"] },
    { label: "type-check", command: "npx", args: ["tsc", "--noEmit"] },
    { label: "unit tests", command: "npx", args: ["vitest", "run", "--project", "unit"] },
  ],
  [
    { label: "integration tests", command: "npx", args: ["vitest", "run", "--project", "integration"] },
    [
      { label: "build", command: "npx", args: ["next", "build"] },
      { label: "first-load JS budget", command: "npx", args: ["tsx", "scripts/bundle-budget.ts"] },
    ],
  ],
  // One after another: each drives a browser against timers and polls, and on two cores three
  // side by side slowed a 16 s spec past its minute (seen while measuring this runner).
  [
    [
      { label: "end-to-end tests", command: "npx", args: ["playwright", "test"] },
      { label: "end-to-end tests (supervisor review, on demo data)", command: "npx", args: ["playwright", "test"], env: { E2E_SEED_DEMO: "1" } },
      { label: "end-to-end tests (two instances behind nginx, on PostgreSQL)", command: "npx", args: ["playwright", "test", "-c", "e2e/multi-instance"] },
    ],
  ],
];

const logDir = path.join("test-results", "npm-test");
mkdirSync(logDir, { recursive: true });
const running = new Set<ChildProcess>();
const timings: string[] = [];
const suiteStartedAt = Date.now();

for (const phase of phases) {
  try {
    await Promise.all(phase.map((entry) => runChain(Array.isArray(entry) ? entry : [entry])));
  } catch (error) {
    console.error(`\n✖ ${(error as Error).message}`);
    await stopRunningStages();
    process.exit(1);
  }
}
const totalMinutes = ((Date.now() - suiteStartedAt) / 60_000).toFixed(1);
console.log(`\n✔ all checks passed in ${totalMinutes} min\n  ${timings.join("\n  ")}`);

async function runChain(stages: Stage[]): Promise<void> {
  for (const stage of stages) await runStage(stage);
}

function runStage(stage: Stage): Promise<void> {
  const logFile = path.join(logDir, `${stage.label.replace(/[^a-z0-9]+/gi, "-").replace(/-+$/, "")}.log`);
  console.log(`▶ ${stage.label} (log: ${logFile})`);
  const startedAt = Date.now();
  return new Promise((resolve, reject) => {
    const log = createWriteStream(logFile);
    // A group of its own, so stopping a failed run reaches the servers a stage started too.
    const child = spawn(stage.command, stage.args, {
      env: { ...process.env, ...stage.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    running.add(child);
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      running.delete(child);
      log.end(() => {
        const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
        console.log(`\n── ${stage.label} (${seconds} s) ──\n${readFileSync(logFile, "utf8").trimEnd()}`);
        if (code === 0) {
          timings.push(`${stage.label}: ${seconds} s`);
          resolve();
        } else {
          reject(new Error(`${stage.label} failed (${signal ?? `exit code ${code}`}); its log: ${logFile}`));
        }
      });
    });
  });
}

/**
 * Stops the stages still running, as Ctrl+C would: Playwright stops the servers it started only
 * when it is interrupted (SIGINT) and given the time to; a stage that has not ended in 20 s is
 * killed with its whole group.
 */
async function stopRunningStages(): Promise<void> {
  const stages = [...running];
  const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  for (const child of stages) signalGroup(child, "SIGINT");
  const allClosed = Promise.all(stages.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once("close", resolve)))));
  await Promise.race([allClosed, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  for (const child of running) signalGroup(child, "SIGKILL");
}

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
