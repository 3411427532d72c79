import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `server-only` throws outside React's server bundle; under Vitest every module is server code.
const serverOnlyStub = fileURLToPath(new URL("./test/kit/server-only-stub.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "server-only": serverOnlyStub, "@/": repoRoot } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["**/*.test.ts", "**/*.test.tsx"],
          exclude: ["**/*.integration.test.ts", "node_modules/**", "e2e/**", ".next*/**"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude: ["node_modules/**", "e2e/**", ".next*/**"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Integration suites start real processes on fixed ports: one file at a time.
          fileParallelism: false,
          // One migrated PGlite directory, copied for each scratch database (test/kit/pglite-template.ts).
          globalSetup: ["./test/kit/integration-setup.ts"],
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
