import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * CPU-seconds of a process tree, for `npm test`'s summary: on two cores the suite's length is its
 * CPU (ADR 0040), and a stage's wall time says little about what it costs when others run beside
 * it. Each stage runs in a control group of its own (its processes and everything they start,
 * browsers and servers included, detached or not); where the machine offers none we may write to
 * (not root, no cgroup file system), the figure is simply left out.
 */

const V1_ROOT = "/sys/fs/cgroup/cpuacct";
const V2_ROOT = "/sys/fs/cgroup";

export type CpuAccount = {
  /** CPU-seconds used so far by the processes of the group, or null when unknown. */
  seconds(): number | null;
  /** Removes the group (when its processes have all ended; otherwise it is left to the system). */
  close(): void;
};

const unknown: CpuAccount = { seconds: () => null, close: () => {} };

/** Puts `pid` (and so whatever it starts from now on) in a new group named `name`. */
export function accountCpuOf(name: string, pid: number): CpuAccount {
  const safeName = `veridesk-test-${process.pid}-${name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`;
  for (const root of [V1_ROOT, V2_ROOT]) {
    const isV1 = root === V1_ROOT;
    if (!existsSync(path.join(root, "cgroup.procs"))) continue;
    if (!isV1 && !existsSync(path.join(root, "cgroup.controllers"))) continue;
    const group = path.join(root, safeName);
    try {
      mkdirSync(group);
      writeFileSync(path.join(group, "cgroup.procs"), String(pid));
    } catch {
      try {
        rmdirSync(group);
      } catch {
        // Never made.
      }
      continue;
    }
    return {
      seconds: () => {
        try {
          if (isV1) return Number(readFileSync(path.join(group, "cpuacct.usage"), "utf8")) / 1e9;
          const usage = /usage_usec (\d+)/.exec(readFileSync(path.join(group, "cpu.stat"), "utf8"));
          return usage ? Number(usage[1]) / 1e6 : null;
        } catch {
          return null;
        }
      },
      close: () => {
        // The stage's last processes may still be on their way out: try again a little later.
        const remove = () => {
          try {
            rmdirSync(group);
            return true;
          } catch {
            return false;
          }
        };
        if (!remove()) setTimeout(remove, 5_000).unref();
      },
    };
  }
  return unknown;
}

/** The whole machine's busy and total CPU time so far (/proc/stat, in clock ticks), or null. */
export function machineCpuTicks(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}
