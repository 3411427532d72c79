import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { desc, eq, gt, lt } from "drizzle-orm";
import type { Database } from "@/lib/db/types";
import { instanceHeartbeats } from "@/lib/db/schema";

/**
 * Which instances are running (ADR 0024): each writes its row every HEARTBEAT_INTERVAL_MS, marks
 * it "stopping" at SIGTERM and deletes it once stopped (lib/server/shutdown.ts). An instance that
 * died without saying so (SIGKILL, power loss) leaves a row that stops being renewed: the
 * Operations page shows it as silent. Rows silent for a day are pruned by the others.
 */

export const HEARTBEAT_INTERVAL_MS = 10_000;
/** Three missed beats: the instance is gone or hung. */
export const HEARTBEAT_SILENT_MS = 3 * HEARTBEAT_INTERVAL_MS;
const PRUNE_AFTER_MS = 24 * 60 * 60_000;
/** Rows silent for a day are pruned at the first beat and then every this many (10 min): one statement a beat otherwise (ADR 0047). */
const PRUNE_EVERY_BEATS = 60;

export type HeartbeatLogger = { error(details: object, message: string): void };

export type Heartbeat = {
  instanceId: string;
  /** At SIGTERM: no more beats, and the row says the instance is stopping. */
  markStopping(): Promise<void>;
  /** Once stopped: the row goes. */
  remove(): Promise<void>;
};

export function startHeartbeat(options: {
  db: () => Promise<Database>;
  runsWatcher: boolean;
  log: HeartbeatLogger;
  intervalMs?: number;
  now?: () => Date;
}): Heartbeat {
  const now = options.now ?? (() => new Date());
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const startedAt = now();
  let beats = 0;

  async function beat(isStopping: boolean): Promise<void> {
    const db = await options.db();
    const at = now();
    const row = { instanceId, host: hostname(), pid: process.pid, startedAt, lastSeenAt: at, runsWatcher: options.runsWatcher, isStopping };
    await db.insert(instanceHeartbeats).values(row).onConflictDoUpdate({ target: instanceHeartbeats.instanceId, set: { lastSeenAt: at, isStopping } });
    if (beats++ % PRUNE_EVERY_BEATS === 0) await db.delete(instanceHeartbeats).where(lt(instanceHeartbeats.lastSeenAt, new Date(at.getTime() - PRUNE_AFTER_MS)));
  }

  const beatLogged = (isStopping: boolean) => beat(isStopping).catch((error: unknown) => options.log.error({ err: error }, "instance heartbeat could not be written"));
  const timer = setInterval(() => void beatLogged(false), options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  timer.unref?.();
  void beatLogged(false);

  return {
    instanceId,
    async markStopping() {
      clearInterval(timer);
      await beatLogged(true);
    },
    async remove() {
      clearInterval(timer);
      const db = await options.db();
      await db.delete(instanceHeartbeats).where(eq(instanceHeartbeats.instanceId, instanceId));
    },
  };
}

export type InstanceView = {
  instanceId: string;
  host: string;
  pid: number;
  startedAt: Date;
  lastSeenAt: Date;
  runsWatcher: boolean;
  status: "running" | "stopping" | "silent";
};

/** The instances heard from in the last hour, the latest first. */
export async function listInstances(db: Database, at = new Date()): Promise<InstanceView[]> {
  const rows = await db
    .select()
    .from(instanceHeartbeats)
    .where(gt(instanceHeartbeats.lastSeenAt, new Date(at.getTime() - 60 * 60_000)))
    .orderBy(desc(instanceHeartbeats.lastSeenAt));
  return rows.map((row) => ({
    ...row,
    status: at.getTime() - row.lastSeenAt.getTime() > HEARTBEAT_SILENT_MS ? "silent" : row.isStopping ? "stopping" : "running",
  }));
}

const globalForHeartbeat = globalThis as typeof globalThis & { verideskHeartbeat?: Heartbeat };

/** This process's heartbeat (instrumentation.ts starts it), for the Operations page's "this one". */
export function currentHeartbeat(): Heartbeat | undefined {
  return globalForHeartbeat.verideskHeartbeat;
}

export function installHeartbeat(heartbeat: Heartbeat): void {
  globalForHeartbeat.verideskHeartbeat = heartbeat;
}
