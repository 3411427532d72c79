import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

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
 * Keeps a group of long-running children together: when one ends, or this process is asked to
 * stop, every other one is stopped too, so no orphaned server keeps a port or a database lock.
 */
export function superviseTogether(children: ChildProcess[]): void {
  let isStopping = false;
  const stopAll = (exitCode: number) => {
    if (isStopping) return;
    isStopping = true;
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    setTimeout(() => process.exit(exitCode), 3_000).unref();
    Promise.all(children.map((child) => (child.exitCode === null ? new Promise((r) => child.once("exit", r)) : null))).then(
      () => process.exit(exitCode),
    );
  };
  for (const child of children) child.on("exit", (code) => stopAll(code ?? 1));
  process.on("SIGINT", () => stopAll(0));
  process.on("SIGTERM", () => stopAll(0));
}
