import "server-only";
import { logger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";

/**
 * Answers of the service that could not be written when they came (ADR 0043). The service may
 * have issued a token and sent the customer an SMS; if the database then refuses the write (a full
 * disk, a restart), the answer is the only trace of that token. It is kept here, in this process,
 * and written again until the database takes it: an outage of the database loses nothing as long
 * as the process lives. A crash loses this queue, and the attempt's row (written before the call)
 * is left `pending`; the sweep then turns it into "outcome unknown", which the supervisor's "enter
 * the token from the customer's SMS" takes.
 *
 * Each write must be idempotent and decide by the row as it finds it (a write that committed but
 * whose answer was lost is then a no-op, not a second event).
 */

export type QueuedWrite = {
  tokenRequestId: string;
  /** What the write records ("issued", or a failure's outcome): for the log and the Operations page. */
  what: string;
  write: () => Promise<void>;
};

type Entry = QueuedWrite & { queuedAt: Date; attempts: number; lastError: string | null };

export type RecordRetrySettings = {
  /** First wait after a failed write; doubles up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
};

const defaultSettings: RecordRetrySettings = { firstDelayMs: 500, maxDelayMs: 5_000 };

type RetryLogger = { info: (object: Record<string, unknown>, message: string) => void; error: (object: Record<string, unknown>, message: string) => void };

export class RecordRetryQueue {
  private readonly entries = new Map<string, Entry>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private delayMs: number;
  private running: Promise<void> | null = null;

  constructor(
    private readonly settings: RecordRetrySettings = defaultSettings,
    private readonly log: RetryLogger = logger.child({ module: "tokens" }),
  ) {
    this.delayMs = settings.firstDelayMs;
  }

  /** Keeps a write that failed; it runs again until it succeeds. One write per attempt: the latest wins. */
  add(write: QueuedWrite, error: unknown): void {
    this.entries.set(write.tokenRequestId, { ...write, queuedAt: new Date(), attempts: 1, lastError: describe(error) });
    metrics().answersWaitingToBeRecorded.set(this.entries.size);
    this.log.error({ err: error, tokenRequestId: write.tokenRequestId, what: write.what, queued: this.entries.size }, "answer of the service could not be recorded: kept in memory, written again until the database takes it");
    this.schedule();
  }

  get size(): number {
    return this.entries.size;
  }

  /** What waits, oldest first: for readiness and the Operations page (no token, no customer datum). */
  describe(): { tokenRequestId: string; what: string; queuedAt: Date; attempts: number; lastError: string | null }[] {
    return [...this.entries.values()]
      .sort((a, b) => a.queuedAt.getTime() - b.queuedAt.getTime())
      .map(({ tokenRequestId, what, queuedAt, attempts, lastError }) => ({ tokenRequestId, what, queuedAt, attempts, lastError }));
  }

  /** Tries every queued write once now (tests, and a clean shutdown's last chance). */
  async flush(): Promise<void> {
    if (this.running) await this.running;
    this.running = this.runOnce();
    try {
      await this.running;
    } finally {
      this.running = null;
    }
  }

  private async runOnce(): Promise<void> {
    for (const entry of [...this.entries.values()]) {
      try {
        await entry.write();
        this.entries.delete(entry.tokenRequestId);
        metrics().answersWaitingToBeRecorded.set(this.entries.size);
        this.log.info({ tokenRequestId: entry.tokenRequestId, what: entry.what, attempts: entry.attempts + 1, waitedMs: Date.now() - entry.queuedAt.getTime() }, "answer of the service recorded after the database came back");
      } catch (error) {
        entry.attempts += 1;
        entry.lastError = describe(error);
      }
    }
  }

  private schedule(): void {
    if (this.timer || this.entries.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().then(() => {
        this.delayMs = this.entries.size === 0 ? this.settings.firstDelayMs : Math.min(this.delayMs * 2, this.settings.maxDelayMs);
        this.schedule();
      });
    }, this.delayMs);
    // The queue never keeps a process alive by itself: a stopping server has its own drain.
    this.timer.unref?.();
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return `${typeof code === "string" ? `${code}: ` : ""}${message}`.slice(0, 200);
}

/**
 * A clean stop's last try (the server's shutdown, before the database closes): what still fails
 * is named in the log; the sweep of the next start marks those attempts "outcome unknown".
 */
export async function flushRecordRetryQueueBeforeExit(): Promise<void> {
  const queue = recordRetryQueue();
  if (queue.size === 0) return;
  await queue.flush();
  if (queue.size > 0) {
    logger.child({ module: "tokens" }).error({ notRecorded: queue.describe() }, "stopping with answers of the service not recorded: their attempts turn outcome unknown; enter their tokens from the customers' SMS");
  }
}

const globalKey = Symbol.for("veridesk.recordRetryQueue");

/** The process's queue, on globalThis: Next's bundles (actions, routes, instrumentation) share it. */
export function recordRetryQueue(): RecordRetryQueue {
  const holder = globalThis as unknown as Record<symbol, RecordRetryQueue | undefined>;
  return (holder[globalKey] ??= new RecordRetryQueue());
}
