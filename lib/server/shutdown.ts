/**
 * The order in which a Veridesk server stops on SIGTERM or SIGINT (ADR 0024).
 *
 * `next start` handles the signal itself: it stops accepting connections, lets the requests under
 * way finish, then calls `process.exit`. Left alone, that exit comes while the token watcher is
 * still finishing a poll, so its leases stay behind until they run out and another instance waits
 * for them. So the app owns the rest of the order: from the signal on, readiness answers "draining"
 * (the balancer stops sending work) and the steps "at the signal" run (the watcher finishes its
 * polls and hands back its leases) while Next finishes its requests; any `process.exit` — Next's,
 * after its last request — waits for them, then runs the steps "before exit" (the database
 * closes: no request can need it any more), then exits. A time limit bounds the whole.
 */

export type ShutdownLogger = {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
};

export type ShutdownTask = { name: string; run: () => Promise<void> };

/** "at-signal": while Next finishes its requests; "before-exit": once nothing else runs. */
export type ShutdownPhase = "at-signal" | "before-exit";

export type ShutdownControl = {
  /** Adds a step to a phase; a phase's steps run one after another, in the order they were added. */
  onShutdown(name: string, run: () => Promise<void>, phase?: ShutdownPhase): void;
  /** True from the signal on: readiness answers 503 so no new work is routed here. */
  isDraining(): boolean;
  /** Starts the shutdown (the signal handler calls it); the same promise on every call. */
  begin(reason: string): Promise<void>;
};

export type ShutdownDependencies = {
  log: ShutdownLogger;
  /** The real process exit, called once the tasks are done (or the time limit has passed). */
  exit: (code: number) => void;
  /** Past this, the process exits even if a task has not finished (a poll hangs longer than its own timeout). */
  timeoutMs: number;
};

export function createShutdown({ log, exit, timeoutMs }: ShutdownDependencies): ShutdownControl & {
  /** Stands in for `process.exit` once the shutdown has begun: exits when the tasks are done. */
  exitWhenDone(code: number): void;
} {
  const tasks: Record<ShutdownPhase, ShutdownTask[]> = { "at-signal": [], "before-exit": [] };
  let running: Promise<void> | undefined;
  let exiting: Promise<void> | undefined;
  let timeLimit: Promise<void> | undefined;

  async function runTasks(phase: ShutdownPhase): Promise<void> {
    for (const task of tasks[phase]) {
      const startedAt = Date.now();
      try {
        await task.run();
        log.info({ task: task.name, ms: Date.now() - startedAt }, "shutdown step done");
      } catch (error) {
        log.error({ err: error, task: task.name }, "shutdown step failed; carrying on with the next");
      }
    }
  }

  return {
    onShutdown(name, run, phase = "at-signal") {
      tasks[phase].push({ name, run });
    },
    isDraining: () => running !== undefined,
    begin(reason) {
      if (running) return running;
      log.info({ reason, steps: [...tasks["at-signal"], ...tasks["before-exit"]].map((task) => task.name) }, "shutting down: finishing polls and requests");
      timeLimit = new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          log.error({ timeoutMs }, "shutdown steps still running at the time limit; exiting anyway");
          resolve();
        }, timeoutMs);
        timer.unref?.();
      });
      running = Promise.race([runTasks("at-signal"), timeLimit]);
      return running;
    },
    exitWhenDone(code) {
      exiting ??= (async () => {
        const allSteps = (async () => {
          await running;
          await runTasks("before-exit");
        })();
        await (timeLimit ? Promise.race([allSteps, timeLimit]) : allSteps);
        log.info({ code }, "shutdown complete");
        exit(code);
      })();
    },
  };
}

// One per process, on globalThis: Next may evaluate server modules more than once.
const globalForShutdown = globalThis as typeof globalThis & { verideskShutdown?: ReturnType<typeof createShutdown> };

/**
 * Installs this process's shutdown: the signal handlers, and `process.exit` held until the tasks
 * are done. With `NEXT_MANUAL_SIG_HANDLE` set, Next does not handle the signals, so we exit
 * ourselves once the tasks are done; otherwise Next's own exit (after its last request) waits.
 */
export function installProcessShutdown(log: ShutdownLogger, timeoutMs: number): ShutdownControl {
  if (globalForShutdown.verideskShutdown) return globalForShutdown.verideskShutdown;
  const realExit = process.exit.bind(process) as (code?: number) => never;
  const shutdown = createShutdown({ log, exit: (code) => realExit(code), timeoutMs });
  globalForShutdown.verideskShutdown = shutdown;
  const isNextHandlingSignals = !process.env.NEXT_MANUAL_SIG_HANDLE;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void shutdown.begin(signal).then(() => {
        if (!isNextHandlingSignals) shutdown.exitWhenDone(0);
      });
      process.exit = ((code?: number | string | null) => {
        shutdown.exitWhenDone(typeof code === "number" ? code : 0);
        return undefined as never;
      }) as typeof process.exit;
    });
  }
  return shutdown;
}

/** This process's shutdown, if the server installed one (readiness asks whether it is draining). */
export function processShutdown(): ShutdownControl | undefined {
  return globalForShutdown.verideskShutdown;
}
