/**
 * `npm run bench [-- name …]`: runs the named benchmarks (all when none is named), each in its own
 * Node process with the flags it needs, one after the other so they do not disturb each other's
 * figures. Never part of `npm test`.
 */
import { spawnSync } from "node:child_process";

const benchmarks: Record<string, { file: string; nodeFlags: string[] }> = {
  provider: { file: "bench/provider-bench.ts", nodeFlags: [] },
  review: { file: "bench/review-bench.ts", nodeFlags: ["--expose-gc"] },
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(", ")}; known: ${Object.keys(benchmarks).join(", ")}`);
  process.exit(2);
}

for (const name of requested.length > 0 ? requested : Object.keys(benchmarks)) {
  const { file, nodeFlags } = benchmarks[name]!;
  console.log(`\n━━ ${name} (${file}) ━━`);
  const run = spawnSync(process.execPath, [...nodeFlags, "--import", "tsx", "--conditions=react-server", file], { stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
