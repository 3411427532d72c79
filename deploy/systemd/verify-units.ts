/**
 * Checks the systemd units in this folder with `systemd-analyze verify` (a stage of `npm test`).
 * systemd-analyze exits 0 on many mistakes it only warns about ("…, ignoring"), so any line it
 * prints about one of our units fails the check.
 *
 * Without systemd-analyze: installed from Debian when running as root (CI), a failure when CI is
 * set, and otherwise skipped with a note (a developer's machine without systemd).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

const unitsDir = path.join(process.cwd(), "deploy", "systemd");
const units = readdirSync(unitsDir).filter((name) => /\.(service|timer)$/.test(name)).map((name) => path.join(unitsDir, name));

function findSystemdAnalyze(): string | undefined {
  return ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].find((candidate) => existsSync(candidate));
}

let binary = findSystemdAnalyze();
if (!binary && process.getuid?.() === 0) {
  console.log("Installing systemd-analyze (apt-get install -y systemd)…");
  execFileSync("sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd"], { stdio: "inherit" });
  binary = findSystemdAnalyze();
}
if (!binary) {
  const message = "systemd-analyze is missing (Debian package: systemd): the systemd units were NOT checked.";
  if (process.env.CI) {
    console.error(`${message} CI must check them.`);
    process.exit(1);
  }
  console.log(`SKIPPED: ${message}`);
  process.exit(0);
}

const result = spawnSync(binary, ["verify", ...units], { encoding: "utf8" });
const lines = `${result.stdout}\n${result.stderr}`.split("\n").filter((line) => line.trim() !== "");
const aboutOurs = lines.filter((line) => units.some((unit) => line.includes(path.basename(unit))));
for (const line of lines) console.log(line);
if (result.status !== 0 || aboutOurs.length > 0) {
  console.error(`systemd-analyze verify found problems in deploy/systemd (exit code ${result.status}).`);
  process.exit(1);
}
console.log(`systemd-analyze verify: ${units.map((unit) => path.basename(unit)).join(", ")} clean.`);
