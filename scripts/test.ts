/**
 * `npm test`: everything CI checks. Lint, unit tests and the production build start at once; the
 * type check, the end-to-end runs (each against its own app, sandbox and database, on its own ports)
 * and the integration tests (real sandbox, real databases) start when the build is there, the heavy
 * ones at most three at a time, in the order listed.
 *
 * On two cores the suite's length is its CPU, most of it the browser's (ADR 0040): stages overlap
 * wherever they can, and nothing is repeated (one build, one seed per app). Each stage writes to its own log under
 * test-results/npm-test/, printed once when the stage ends, so the output of parallel stages never
 * interleaves; the first failure stops the rest, and its log's tail is printed again last, where
 * the end of a CI page shows it (the stopped stages print only their tails). The summary lists each stage once, with its time.
 */
import "./support/require-supported-node";
import { execSync, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { DEBIAN_HEADLESS_SHELL } from "../e2e/support/chromium";
import { accountCpuOf, machineCpuTicks } from "./support/cpu-accounting";
import { TEST_DATABASE_TEMPLATE_VARIABLE } from "./support/test-database-template";

const nginxPath = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

if (process.env.CHROMIUM_PATH) ensureSystemPackage("Chromium", process.env.CHROMIUM_PATH, "chromium");
else ensureSystemPackage("Chromium's headless shell", DEBIAN_HEADLESS_SHELL.path, DEBIAN_HEADLESS_SHELL.debianPackage);
ensureSystemPackage("nginx", nginxPath, "nginx");
ensurePostgres();
// A bank's test run sends nothing to Next's telemetry either.
process.env.NEXT_TELEMETRY_DISABLED = "1";
// The apps of the end-to-end runs and of the drills start on copies of one database made by the
// "test database template" stage (scripts/support/test-database-template.ts): about 7 CPU-s saved
// an app. Every stage inherits where it is; it goes with the run.
const templateFolder = mkdtempSync(path.join(tmpdir(), "veridesk-test-template-"));
process.env[TEST_DATABASE_TEMPLATE_VARIABLE] = path.join(templateFolder, "template");
process.on("exit", () => rmSync(templateFolder, { recursive: true, force: true }));
const DATABASE_TEMPLATE = "test database template";

type Stage = {
  label: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Stages that must have passed before this one starts. */
  after?: string[];
  /** Counts against the limit of heavy stages running at once (the end-to-end and integration runs). */
  heavy?: boolean;
};

/**
 * Heavy stages running at once: the two halves and the integration tests keep both cores busy. A
 * fourth beside them (the multi-instance run) slowed the halves by more than it saved.
 */
const HEAVY_AT_ONCE = 3;

const playwright = (label: string, env: Record<string, string>, extraArgs: string[] = []): Stage => ({
  label,
  command: "npx",
  args: ["playwright", "test", ...extraArgs],
  env,
  after: ["build", DATABASE_TEMPLATE],
  heavy: true,
});

// A heavy stage starts in this order when a place is free: the longest first.
const stages: Stage[] = [
  { label: "lint", command: "npm", args: ["run", "--silent", "lint"] },
  // After the build: the build writes the route types (.next/types) that tsconfig.json takes in, and
  // skips its own check of the same program (BUILD_SKIPS_TYPE_CHECK, next.config.js).
  { label: "type-check", command: "npx", args: ["tsc", "--noEmit"], after: ["build"] },
  { label: "systemd units", command: "npx", args: ["tsx", "deploy/systemd/verify-units.ts"] },
  { label: "OpenAPI document lint", command: "npx", args: ["tsx", "--conditions=react-server", "scripts/openapi-lint.ts"] },
  { label: "unit tests", command: "npx", args: ["vitest", "run", "--project", "unit", "--project", "unit-isolated"] },
  { label: "build", command: "npx", args: ["next", "build"], env: { BUILD_SKIPS_TYPE_CHECK: "1" } },
  { label: "first-load JS budget", command: "npx", args: ["tsx", "scripts/bundle-budget.ts"], after: ["build"] },
  {
    label: DATABASE_TEMPLATE,
    command: "node_modules/.bin/tsx",
    args: ["--conditions=react-server", "scripts/support/make-test-database-template.ts", process.env[TEST_DATABASE_TEMPLATE_VARIABLE]!],
    env: { APP_ENV: "test" },
  },
  playwright("end-to-end tests, half 2 (screens, many viewers, provider faults)", { E2E_HALF: "2", E2E_APP_PORT: "3110", E2E_SANDBOX_PORT: "4110" }),
  playwright("end-to-end tests, half 1", { E2E_HALF: "1", E2E_APP_PORT: "3100", E2E_SANDBOX_PORT: "4100" }),
  {
    label: "integration tests",
    command: "npx",
    // The shared-process files, then those that each need a process (vitest.config.ts), in one run.
    args: ["vitest", "run", "--project", "integration", "--project", "integration-isolated"],
    after: ["build"],
    heavy: true,
  },
  // The failure drills (test/drills: a full disk, PostgreSQL restarts, SIGKILLs) mostly wait on
  // the processes they stop and start, so they run beside the heavy stages, not in a place of theirs.
  { label: "failure drills", command: "npx", args: ["vitest", "run", "--project", "drills"], after: ["build", DATABASE_TEMPLATE] },
  playwright("end-to-end tests (two instances behind nginx, on PostgreSQL)", {}, ["-c", "e2e/multi-instance"]),
  playwright("end-to-end tests (supervisor review, on demo data)", { E2E_SEED_DEMO: "1", E2E_APP_PORT: "3120", E2E_SANDBOX_PORT: "4120" }),
];

const logDir = path.join("test-results", "npm-test");
mkdirSync(logDir, { recursive: true });
const running = new Set<ChildProcess>();
const timings: string[] = [];
const suiteStartedAt = Date.now();
const machineAtStart = machineCpuTicks();

/** The first stage that failed: the stages stopped after it print only their tails, and its log comes last. */
let firstFailure: { label: string; logFile: string } | undefined;
/** Lines of the failed stage's log printed again at the very end, where a CI page's tail shows them. */
const FAILED_LOG_TAIL_LINES = 120;
/** Lines of a stage stopped because another failed: enough to see what it was doing. */
const STOPPED_LOG_TAIL_LINES = 15;

try {
  await runAll(stages);
} catch (error) {
  await stopRunningStages();
  if (firstFailure) {
    console.error(`\n── the failed stage, ${firstFailure.label}: the last ${FAILED_LOG_TAIL_LINES} lines of ${firstFailure.logFile} ──`);
    console.error(lastLines(readFileSync(firstFailure.logFile, "utf8"), FAILED_LOG_TAIL_LINES));
  }
  console.error(`\n✖ ${(error as Error).message}`);
  process.exit(1);
}
const totalMinutes = ((Date.now() - suiteStartedAt) / 60_000).toFixed(1);
console.log(`\n✔ all checks passed in ${totalMinutes} min${machineBusy()}\n  ${timings.join("\n  ")}`);

/** How busy the machine's cores were during the run (everything on it, not only the suite). */
function machineBusy(): string {
  const atEnd = machineCpuTicks();
  if (!machineAtStart || !atEnd || atEnd.total === machineAtStart.total) return "";
  const share = (atEnd.busy - machineAtStart.busy) / (atEnd.total - machineAtStart.total);
  return ` (the machine's ${availableParallelism()} cores ${Math.round(share * 100)} % busy)`;
}

/**
 * Starts every stage whose `after` stages have passed, heavy ones only while fewer than
 * HEAVY_AT_ONCE run; answers when all have passed, or rejects with the first failure.
 */
function runAll(all: Stage[]): Promise<void> {
  const passed = new Set<string>();
  const started = new Set<string>();
  let heavyRunning = 0;
  return new Promise((resolve, reject) => {
    const startWhatCan = () => {
      if (passed.size === all.length) return resolve();
      for (const stage of all) {
        if (started.has(stage.label)) continue;
        if (!(stage.after ?? []).every((label) => passed.has(label))) continue;
        if (stage.heavy && heavyRunning >= HEAVY_AT_ONCE) continue;
        started.add(stage.label);
        if (stage.heavy) heavyRunning += 1;
        runStage(stage).then(() => {
          if (stage.heavy) heavyRunning -= 1;
          passed.add(stage.label);
          startWhatCan();
        }, reject);
      }
    };
    startWhatCan();
  });
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
    const cpu = child.pid === undefined ? undefined : accountCpuOf(stage.label, child.pid);
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      running.delete(child);
      const cpuSeconds = cpu?.seconds();
      cpu?.close();
      log.end(() => {
        const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
        const cpuFigure = cpuSeconds == null ? "" : `, ${Math.round(cpuSeconds)} CPU-s`;
        const text = readFileSync(logFile, "utf8").trimEnd();
        if (firstFailure && code !== 0) {
          // Stopped because another stage failed: its own failure is the stop, not news.
          console.log(`\n── ${stage.label} (${seconds} s, stopped after ${firstFailure.label} failed; last ${STOPPED_LOG_TAIL_LINES} lines) ──\n${lastLines(text, STOPPED_LOG_TAIL_LINES)}`);
        } else {
          console.log(`\n── ${stage.label} (${seconds} s${cpuFigure}) ──\n${text}`);
        }
        if (code === 0) {
          // When it ran within the suite too: what ran beside what, and what ran last, shows.
          const fromTo = [startedAt, Date.now()].map((at) => Math.round((at - suiteStartedAt) / 1000));
          timings.push(`${stage.label}: ${seconds} s (${fromTo[0]}–${fromTo[1]} s${cpuFigure})`);
          resolve();
        } else {
          firstFailure ??= { label: stage.label, logFile };
          reject(new Error(`${stage.label} failed (${signal ?? `exit code ${code}`}); its log: ${logFile}`));
        }
      });
    });
  });
}

/**
 * Stops the stages still running, as Ctrl+C would: Playwright stops the servers it started only
 * when it is interrupted (SIGINT) and given the time to. Those servers run in process groups of
 * their own, so a stage that has not ended in 20 s is killed with every process it had started,
 * listed before the interrupt (an orphan is re-parented and could no longer be found): a sandbox
 * left behind would hold its port and fail the next run.
 */
async function stopRunningStages(): Promise<void> {
  const stages = [...running];
  const startedByStages = stages.flatMap((child) => (child.pid === undefined ? [] : descendantsOf(child.pid)));
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // Already gone.
    }
  };
  for (const child of stages) if (child.pid !== undefined) signal(-child.pid, "SIGINT");
  const allClosed = Promise.all(stages.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once("close", resolve)))));
  await Promise.race([allClosed, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  for (const child of running) if (child.pid !== undefined) signal(-child.pid, "SIGKILL");
  for (const pid of startedByStages) signal(pid, "SIGKILL");
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}

/** Every process below `pid` (children, their children, …), from `ps`. */
function descendantsOf(pid: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const line of execSync("ps -e -o pid=,ppid=", { encoding: "utf8" }).trim().split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    childrenOf.set(parent!, [...(childrenOf.get(parent!) ?? []), child!]);
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const child of childrenOf.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
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
