/**
 * `npm start`: one command from a fresh clone to a working desk. Builds the app when the build is
 * missing or older than the sources, starts the provider sandbox (unless a real service is
 * configured), then prepares the database and serves the app.
 */
import "./support/require-supported-node";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { localBin, runToCompletion, startServer, superviseTogether } from "./support/processes";

// Next sends anonymous usage data unless told not to; a bank's servers send nothing out (docs/operations.md).
process.env.NEXT_TELEMETRY_DISABLED = "1";

const port = process.env.PORT ?? "3000";
const sandboxPort = process.env.SANDBOX_PORT ?? "4010";
const isProduction = process.env.APP_ENV === "production";
const usesSandbox = !isProduction && !process.env.UPSTREAM_BASE_URL;
const distDir = process.env.NEXT_DIST_DIR || ".next";

if (isProduction) {
  // A production install has no build tools (`npm install --omit=dev`): the release carries its
  // build, made where the dev dependencies are (docs/operations.md).
  if (!existsSync(path.join(distDir, "BUILD_ID"))) {
    console.error(`No build in ${distDir}: in production the release brings its build (npm run build where the dev dependencies are installed).`);
    process.exit(1);
  }
} else if (isBuildStale()) {
  console.log("Building Veridesk (first start or sources changed)…");
  await runToCompletion(localBin("next"), ["build"]);
}

const children = [];
const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: port };
if (usesSandbox) {
  children.push(startServer(localBin("tsx"), ["sandbox/server.ts"], { env: { ...process.env, SANDBOX_PORT: sandboxPort } }));
  childEnv.UPSTREAM_BASE_URL = `http://127.0.0.1:${sandboxPort}`;
}
children.push(startServer(localBin("tsx"), ["--conditions=react-server", "scripts/serve-app.ts"], { env: childEnv }));
superviseTogether(children);

console.log(`\nVeridesk:  http://localhost:${port}`);
if (usesSandbox) console.log(`Sandbox:   http://127.0.0.1:${sandboxPort}/sandbox  (outbox, customer links, scanner, controls)\n`);

function isBuildStale(): boolean {
  const buildIdFile = path.join(distDir, "BUILD_ID");
  if (!existsSync(buildIdFile)) return true;
  const builtAt = statSync(buildIdFile).mtimeMs;
  const sources = ["app", "components", "lib", "public", "proxy.ts", "instrumentation.ts", "next.config.js", "tailwind.config.ts", "package-lock.json"];
  return sources.some((source) => newestModification(source) > builtAt);
}

function newestModification(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(entry).map((name) => newestModification(path.join(entry, name))));
}
