import { execFileSync } from "node:child_process";

/**
 * The process groups of `next start` serving a port. `scripts/serve-app.ts` starts the server in
 * a group of its own, so a test that must kill a server for sure (a SIGKILL to serve-app alone
 * leaves it running) or find its pids signals these groups. A pure `ps` read: no other import, so
 * Playwright configurations and drills can both use it.
 */
export function nextServerGroupsOnPort(port: number | string): number[] {
  // The port ends the argument (the next one follows a space): 3301 must not match 33010.
  const command = new RegExp(`next start --port ${port}(\\s|$)`);
  const groups = execFileSync("ps", ["-eo", "pgid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => command.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
  return [...new Set(groups)].filter((group) => group > 1);
}
