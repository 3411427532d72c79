/**
 * Prepares the database and serves the built app (`next start`). Used by `npm start` and by the
 * Playwright run. On the embedded database the first start seeds the demo staff; in production
 * nothing is seeded (admins are created with `npm run staff:create`).
 *
 * The preparation (scripts/db-prepare.ts) runs in its own process and ends before `next start`
 * opens the database, because an embedded (PGlite) data directory has exactly one owner at a time.
 */
import "./support/require-supported-node";
import { openSync, writeSync } from "node:fs";
import { localBin, runToCompletion, startServer, superviseTogether } from "./support/processes";

// Next sends anonymous usage data unless told not to; a bank's servers send nothing out (docs/operations.md).
process.env.NEXT_TELEMETRY_DISABLED = "1";

const tsx = ["--conditions=react-server"];
const port = process.env.PORT ?? "3000";

// Migrations, the demo staff on the embedded database (`E2E_SEED_DEMO=1`, the review end-to-end
// run, adds 30 days of demo tokens) and an end-to-end run's live fixtures, in one process.
await runToCompletion(localBin("tsx"), [...tsx, "scripts/db-prepare.ts"]);

// An idle connection is closed by the balancer before the app closes it: when both could close it,
// the balancer may send a request down a connection the app is closing at that moment, and answer
// 502 (nginx's upstream keepalive_timeout is 60 s by default; deploy/nginx sets 50 s).
const keepAliveTimeoutMs = process.env.KEEP_ALIVE_TIMEOUT_MS ?? "65000";
if (!/^[1-9]\d{3,6}$/.test(keepAliveTimeoutMs)) {
  console.error(`KEEP_ALIVE_TIMEOUT_MS must be a whole number of milliseconds (1000 or more), not "${keepAliveTimeoutMs}"`);
  process.exit(1);
}
// Under a shell that waits for it, on purpose: the shell keeps "next start --port N" in the process
// list, where the tests that must kill a server for sure find it (test/kit/server-processes.ts),
// since the server itself retitles to "next-server". Not through npx, which did the same but first
// started npm, half a CPU-second at every start (`; exit $?` keeps the shell from exec-ing the
// server in its place; the group gets every signal: scripts/support/processes.ts).
const nextServer = startServer("sh", [
  "-c", '"$@"; exit $?', "serve-app",
  localBin("next"), "start", "--port", port, "--hostname", process.env.BIND_HOST ?? "127.0.0.1", "--keepAliveTimeout", keepAliveTimeoutMs,
], {
  stdio: ["ignore", "pipe", "pipe"],
});

// The server log is also kept in a file when asked, so tests can prove what never reaches it.
// Written synchronously: the server's last lines (its shutdown) arrive just before this process
// exits, and a buffered stream would lose them.
const logFile = process.env.SERVER_LOG_FILE ? openSync(process.env.SERVER_LOG_FILE, "a") : null;
nextServer.stdout?.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (logFile !== null) writeSync(logFile, chunk);
});
nextServer.stderr?.on("data", (chunk: Buffer) => {
  process.stderr.write(chunk);
  if (logFile !== null) writeSync(logFile, chunk);
});

superviseTogether([nextServer]);
