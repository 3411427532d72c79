import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `server-only` throws outside React's server bundle; under Vitest every module is server code.
const serverOnlyStub = fileURLToPath(new URL("./test/kit/server-only-stub.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL(".", import.meta.url));

/**
 * Which test files may share a process with others (projects "unit" and "integration",
 * `isolate: false`) and which need one of their own ("unit-isolated", "integration-isolated").
 *
 * A process per file costs CPU (the process, the modules, for integration files PGlite's
 * WebAssembly: ADR 0040); sharing saves most of it. But in a shared process a file inherits
 * whatever the files before it left behind: environment variables, mocked modules, fake timers,
 * the process's own database (lib/db/client's singleton) and the settings lib/env read once. So a
 * file that touches any of that runs alone, and the rule is mechanical: a file whose source shows
 * one of the markers below is isolated, every other file is shared. No list to keep: a new file
 * lands where its source says.
 *
 * If a file needs its own process for a reason no marker catches (it passes alone and fails after
 * other files), write the comment `// vitest-own-process: <why>` in it.
 *
 * Held by test/kit/vitest-projects.test.ts (a unit test). Which project a file is in:
 * `npx vitest list --project integration-isolated --filesOnly` (or unit-isolated).
 */

export type ProcessStateMarker = { pattern: RegExp; what: string };

export const PROCESS_STATE_MARKERS: ProcessStateMarker[] = [
  { pattern: /\buseScratchProcessDatabase\b/, what: "points the process's database at a scratch directory" },
  { pattern: /\bPGLITE_DATA_DIR\b/, what: "names the process's PGlite directory" },
  { pattern: /\bvi\s*\.\s*(mock|doMock|unmock|doUnmock|hoisted|resetModules)\b/, what: "replaces or reloads modules" },
  { pattern: /\bvi\s*\.\s*(stubEnv|stubGlobal|useFakeTimers|spyOn)\b/, what: "stubs the environment, a global, the clock or a module's export" },
  { pattern: /\bprocess\s*\.\s*env\s*(\.\s*\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)/, what: "writes an environment variable" },
  { pattern: /\bdelete\s+process\s*\.\s*env\b/, what: "removes an environment variable" },
  { pattern: /\bObject\s*\.\s*assign\s*\(\s*process\s*\.\s*env\b/, what: "writes environment variables" },
  { pattern: /\bprocess\s*\.\s*(chdir|umask|on|once|exitCode)\b/, what: "changes the process (directory, handlers, exit code)" },
  { pattern: /\bglobalThis\s*\.\s*\w+\s*=(?!=)/, what: "writes a global" },
  { pattern: /\bvitest-own-process\b/, what: "asks for a process of its own" },
];

/** What in `source` makes its file need a process of its own (empty: it may share one). */
export function processStateIn(source: string): string[] {
  return PROCESS_STATE_MARKERS.filter((marker) => marker.pattern.test(source)).map((marker) => marker.what);
}

// Dot directories (.git, .next*) are skipped too.
const SKIPPED_DIRECTORIES = new Set(["node_modules", "e2e", "test-results", "playwright-report"]);

/** The files under `root` whose name passes `isTest`, relative to it, with forward slashes, sorted. */
function testFiles(root: string, isTest: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of fs.readdirSync(path.join(root, directory), { withFileTypes: true })) {
      const relative = directory ? `${directory}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name) && !entry.name.startsWith(".")) walk(relative);
      } else if (isTest(entry.name)) found.push(relative);
    }
  };
  walk("");
  return found.sort();
}

export const integrationTestFiles = (root: string) => testFiles(root, (name) => name.endsWith(".integration.test.ts"));
export const unitTestFiles = (root: string) => testFiles(root, (name) => /\.test\.tsx?$/.test(name) && !name.endsWith(".integration.test.ts"));

/** Of `files` (relative to `root`), those that need a process of their own, by the markers in their source. */
export function filesNeedingOwnProcess(root: string, files: string[]): string[] {
  return files.filter((file) => processStateIn(fs.readFileSync(path.join(root, file), "utf8")).length > 0);
}

// Vitest refuses an empty `include`; this matches nothing.
const orNothing = (files: string[]) => (files.length > 0 ? files : ["no-file-needs-a-process-of-its-own"]);
const unitOwnProcess = filesNeedingOwnProcess(repoRoot, unitTestFiles(repoRoot));
const integrationOwnProcess = filesNeedingOwnProcess(repoRoot, integrationTestFiles(repoRoot));
const notTests = ["node_modules/**", "e2e/**", ".next*/**"];
const integrationSettings = {
  environment: "node" as const,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Integration suites start real processes on fixed ports: one file at a time, and the two
  // projects one after the other (Vitest runs a shared project's group, then the files that
  // each want a process and one worker, never both at once). Run both with
  // `npm run test:integration` (both `--project` flags).
  fileParallelism: false,
  // One migrated PGlite directory, copied for each scratch database (test/kit/pglite-template.ts);
  // made once even when both projects run (integration-setup.ts).
  globalSetup: ["./test/kit/integration-setup.ts"],
};

export default defineConfig({
  resolve: { alias: { "server-only": serverOnlyStub, "@/": repoRoot } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          // Unit files without process state: each worker runs file after file (a third of the CPU).
          name: "unit",
          include: ["**/*.test.ts", "**/*.test.tsx"],
          exclude: ["**/*.integration.test.ts", ...notTests, ...unitOwnProcess],
          environment: "node",
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Unit files that set process state, each in a process of its own.
          name: "unit-isolated",
          include: orNothing(unitOwnProcess),
          exclude: notTests,
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          // Every integration file without process state, all in one process.
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude: [...notTests, ...integrationOwnProcess],
          ...integrationSettings,
          isolate: false,
          // Its own group, so it never runs beside the isolated files (nor beside unit tests'
          // many workers when everything runs at once).
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          // The integration files that set process state, each in a process of its own.
          name: "integration-isolated",
          include: orNothing(integrationOwnProcess),
          exclude: notTests,
          ...integrationSettings,
        },
      },
      {
        extends: true,
        test: {
          // Failure drills (test/drills): root-only faults such as a full disk, a stage of their own.
          name: "drills",
          include: ["test/drills/**/*.drill.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          globalSetup: ["./test/kit/integration-setup.ts"],
        },
      },
    ],
  },
});
