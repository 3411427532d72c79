import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A CPU cap for one process and its children, through the kernel's `cpu` cgroup controller: on
 * two shared cores, an uncapped instance takes what the load generator, nginx and PostgreSQL need,
 * so "two instances ÷ one" measured the machine, not the app. Capped at half a core each, one
 * instance has half a core and two have a whole one, with the rest left to everything else.
 *
 * Works with cgroup v1 (`/sys/fs/cgroup/cpu/…/cpu.cfs_quota_us`, this machine) and v2
 * (`/sys/fs/cgroup/…/cpu.max`); needs root. `wrap` answers the command line that puts the shell
 * in the group and then execs the command, so every process it starts is in the group too.
 */
export type CpuCap = { name: string; cores: number; wrap: (command: string, args: string[]) => { command: string; args: string[] }; throttledShare: () => number | null; pids: () => number[]; remove: () => void };

const V1_ROOT = "/sys/fs/cgroup/cpu";
const V2_ROOT = "/sys/fs/cgroup";
const PERIOD_US = 100_000;

function cgroupVersion(): 1 | 2 | null {
  if (existsSync(path.join(V1_ROOT, "cpu.cfs_quota_us"))) return 1;
  if (existsSync(path.join(V2_ROOT, "cgroup.controllers")) && readFileSync(path.join(V2_ROOT, "cgroup.controllers"), "utf8").includes("cpu")) return 2;
  return null;
}

/** Answers a cap of `cores` cores, or throws with what is missing (not root, no cpu controller). */
export function createCpuCap(name: string, cores: number): CpuCap {
  const version = cgroupVersion();
  if (version === null) throw new Error("no writable cpu cgroup controller here: run as root on Linux, or set BENCH_INSTANCE_CPU=0 for no caps");
  const dir = path.join(version === 1 ? V1_ROOT : V2_ROOT, `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const quota = Math.round(cores * PERIOD_US);
  if (version === 1) {
    writeFileSync(path.join(dir, "cpu.cfs_period_us"), String(PERIOD_US));
    writeFileSync(path.join(dir, "cpu.cfs_quota_us"), String(quota));
  } else {
    writeFileSync(path.join(dir, "cpu.max"), `${quota} ${PERIOD_US}`);
  }
  const procs = path.join(dir, "cgroup.procs");
  return {
    name,
    cores,
    // `exec` keeps the shell's pid, the one written into the group, for the command itself.
    wrap: (command, args) => ({ command: "sh", args: ["-c", `echo $$ > ${procs} && exec "$0" "$@"`, command, ...args] }),
    throttledShare: () => {
      // v1 and v2 both count the periods the group ran in, and those in which it hit its quota.
      const stat = readFileSync(path.join(dir, "cpu.stat"), "utf8");
      const periods = Number(/nr_periods (\d+)/.exec(stat)?.[1] ?? 0);
      const throttled = Number(/nr_throttled (\d+)/.exec(stat)?.[1] ?? 0);
      return periods === 0 ? null : throttled / periods;
    },
    pids: () =>
      readFileSync(procs, "utf8")
        .split("\n")
        .filter(Boolean)
        .map(Number),
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {
        // Still holds a process that has not exited yet; the kernel keeps an empty group harmlessly.
      }
    },
  };
}
