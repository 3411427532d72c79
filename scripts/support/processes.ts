import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import path from "node:path";

/**
 * A package's command from the project's node_modules/.bin, started directly. `npx` starts npm
 * first to find it, about half a CPU-second each time: an app start runs three of them, and the
 * test run starts apps a dozen times on two cores (ADR 0040).
 */
export function localBin(name: "next" | "tsx"): string {
  return path.resolve(import.meta.dirname, "..", "..", "node_modules", ".bin", name);
}

/** Runs a command to completion, inheriting the terminal; rejects on a non-zero exit. */
export function runToCompletion(command: string, args: string[], options: SpawnOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", ...options });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} ended with ${signal ?? `exit code ${code}`}`));
    });
  });
}

/**
 * Starts a server in a process group of its own. `npx` puts shells and wrappers between us and
 * the real server, and a signal to the wrapper alone leaves the server running; stopping the
 * whole group (see `superviseTogether`) reaches every one of them.
 */
export function startServer(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(command, args, { stdio: "inherit", ...options, detached: true });
}

/**
 * Keeps a group of servers together: when one ends, or this process is asked to stop, every
 * other one is stopped too, so no orphaned server keeps a port or a database lock.
 */
export function superviseTogether(children: ChildProcess[]): void {
  let isStopping = false;
  // "close", not "exit": by then the child's last output (its shutdown lines) has been read.
  const allClosed = children.map((child) => new Promise((resolve) => child.once("close", resolve)));
  const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const stopAll = (exitCode: number) => {
    if (isStopping) return;
    isStopping = true;
    for (const child of children) signalGroup(child, "SIGTERM");
    // A server that ignores SIGTERM this long is stopped for good: long enough for an issuing call
    // under way (UPSTREAM_ISSUE_TIMEOUT_MS, 30 s) and the watcher's last poll to finish (ADR 0024).
    setTimeout(() => {
      for (const child of children) signalGroup(child, "SIGKILL");
      process.exit(exitCode);
    }, 40_000).unref();
    Promise.all(allClosed).then(
      () => process.exit(exitCode),
    );
  };
  for (const child of children) child.on("exit", (code) => stopAll(code ?? 1));
  process.on("SIGINT", () => stopAll(0));
  process.on("SIGTERM", () => stopAll(0));
  process.on("SIGHUP", () => stopAll(0));
}
