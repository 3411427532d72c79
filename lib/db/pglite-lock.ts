import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "@/lib/errors";

/**
 * PGlite does not lock its data directory: two processes that open it both run, and the writes of
 * one are silently lost. So exactly one process owns a directory, proven by a lock file next to it
 * (`<dataDir>.lock`, outside the directory PGlite manages), and every other opener is refused with
 * a message naming the holder.
 *
 * Why a lock file and not flock(2): Node has no portable flock (only native add-ons), and an
 * advisory lock would not say who holds it. The cost of a file is that it outlives a crash, so a
 * lock whose process is gone is taken over:
 * - the file appears complete or not at all (written aside, then hard-linked into place, which
 *   fails if the name exists), so a reader never sees half a record;
 * - a holder is alive when its pid answers `kill(pid, 0)` and, on Linux, that pid still has the
 *   start time recorded in the lock (otherwise the pid was reused by an unrelated process);
 * - a dead holder's lock is removed only under a short "takeover" guard file and only if it still
 *   holds the very record judged dead, so two starters racing for a stale lock cannot both win.
 */

export interface PgliteLockHolder {
  pid: number;
  /** What the process is, in words: "npm run dev", "npm run db:seed". */
  label: string;
  command: string;
  hostname: string;
  startedAt: string;
  /** Linux process start time (field 22 of /proc/<pid>/stat), to tell a reused pid from the holder. */
  processStartTicks?: string;
  /** Names this one lock, so a release never removes a lock someone else took afterwards. */
  token: string;
}

export interface PgliteLock {
  readonly lockPath: string;
  readonly holder: PgliteLockHolder;
  /** The dead process whose lock was taken over, if any (worth a warning in the log). */
  readonly tookOverFrom: PgliteLockHolder | "unreadable lock file" | undefined;
  release(): void;
}

type LockFileContent =
  | { state: "missing" }
  | { state: "unreadable"; raw: string }
  | { state: "held"; raw: string; holder: PgliteLockHolder };

const ATTEMPTS = 5;

// On globalThis, not module scope: Next may evaluate this module more than once in one process
// (hot reload, separate bundles), and each copy must know what the process already holds.
interface LockRegistry {
  held: Map<string, PgliteLock>;
  areExitHandlersInstalled: boolean;
}
const globalForLocks = globalThis as typeof globalThis & { verideskPgliteLocks?: LockRegistry };
const registry: LockRegistry = (globalForLocks.verideskPgliteLocks ??= {
  held: new Map(),
  areExitHandlersInstalled: false,
});

export function lockPathFor(dataDir: string): string {
  return `${path.resolve(dataDir)}.lock`;
}

/**
 * Takes the exclusive lock on a PGlite data directory for this process, or throws an AppError
 * (CONFIGURATION) naming the process that holds it and what to do.
 */
export async function acquirePgliteLock(dataDir: string, label: string): Promise<PgliteLock> {
  fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const lockPath = lockPathFor(dataDir);
  const heldHere = registry.held.get(lockPath);
  if (heldHere) throw lockedError(dataDir, lockPath, heldHere.holder, "this process itself has it open already");

  const holder = describeThisProcess(label);
  let tookOverFrom: PgliteLock["tookOverFrom"];
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (tryCreateLockFile(lockPath, holder)) return registerLock(lockPath, holder, tookOverFrom);

    const current = readLockFile(lockPath);
    if (current.state === "missing") continue;
    if (current.state === "held" && isHolderRunning(current.holder)) {
      throw lockedError(dataDir, lockPath, current.holder);
    }
    // A lock file is only ever written whole, so an unreadable one was damaged, not half-written.
    if (removeStaleLockFile(lockPath, current.raw)) {
      tookOverFrom = current.state === "held" ? current.holder : "unreadable lock file";
    } else {
      await sleep(20 * attempt);
    }
  }
  throw new AppError(
    "CONFIGURATION",
    `Could not take the PGlite lock ${lockPath} after ${ATTEMPTS} attempts: other processes kept taking it first.`,
  );
}

function registerLock(
  lockPath: string,
  holder: PgliteLockHolder,
  tookOverFrom: PgliteLock["tookOverFrom"],
): PgliteLock {
  const lock: PgliteLock = {
    lockPath,
    holder,
    tookOverFrom,
    release() {
      if (registry.held.get(lockPath) !== lock) return;
      registry.held.delete(lockPath);
      removeLockFileIfOurs(lockPath, holder.token);
    },
  };
  registry.held.set(lockPath, lock);
  installExitHandlers();
  return lock;
}

function describeThisProcess(label: string): PgliteLockHolder {
  return {
    pid: process.pid,
    label,
    command: process.argv.join(" "),
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
    processStartTicks: readProcessStat(process.pid)?.startTicks,
    token: randomUUID(),
  };
}

/** Creates the file with the whole record in one step; false when a lock file exists already. */
function tryCreateLockFile(lockPath: string, holder: PgliteLockHolder): boolean {
  const draftPath = `${lockPath}.${process.pid}.${holder.token}.draft`;
  fs.writeFileSync(draftPath, `${JSON.stringify(holder, null, 2)}\n`, { flag: "wx" });
  try {
    fs.linkSync(draftPath, lockPath);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    fs.rmSync(draftPath, { force: true });
  }
}

function readLockFile(lockPath: string): LockFileContent {
  let raw: string;
  try {
    raw = fs.readFileSync(lockPath, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { state: "missing" };
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isLockHolder(parsed)) return { state: "held", raw, holder: parsed };
  } catch {
    // Falls through: damaged content is treated like a lock without a live holder.
  }
  return { state: "unreadable", raw };
}

function isLockHolder(value: unknown): value is PgliteLockHolder {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    Number.isInteger(record.pid) &&
    typeof record.label === "string" &&
    typeof record.command === "string" &&
    typeof record.hostname === "string" &&
    typeof record.startedAt === "string" &&
    typeof record.token === "string"
  );
}

function isHolderRunning(holder: PgliteLockHolder): boolean {
  // Processes of another machine (a shared volume) cannot be checked: assume it still runs.
  if (holder.hostname !== os.hostname()) return true;
  // Our own pid but not in our registry: a previous run that had the same pid (a restarted
  // container numbers its processes the same way every time).
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM means the process exists but belongs to another user: it is running.
    if (errorCode(error) === "ESRCH") return false;
  }
  const current = readProcessStat(holder.pid);
  // A killed holder whose parent died with it stays a zombie until the machine's init reaps it,
  // which some container inits do only seconds later: `kill(pid, 0)` still answers, but nothing
  // of it runs or writes any more.
  if (current?.state === "Z" || current?.state === "X") return false;
  const isPidReused =
    holder.processStartTicks !== undefined &&
    current !== undefined &&
    current.startTicks !== holder.processStartTicks;
  return !isPidReused;
}

/**
 * Removes a lock file judged stale, provided it still holds exactly the content judged. The guard
 * file makes "check it is the same, then remove" one step among processes doing the same.
 * Returns true when this process removed it.
 */
function removeStaleLockFile(lockPath: string, staleContent: string): boolean {
  const guardPath = `${lockPath}.takeover`;
  const guardHolder = describeThisProcess("taking over a stale lock");
  if (!tryCreateLockFile(guardPath, guardHolder)) {
    const guard = readLockFile(guardPath);
    // A guard outlives its process only if that process died within the few statements below.
    if (guard.state !== "missing" && !(guard.state === "held" && isHolderRunning(guard.holder))) {
      fs.rmSync(guardPath, { force: true });
    }
    return false;
  }
  try {
    const current = readLockFile(lockPath);
    if (current.state === "missing" || current.raw !== staleContent) return false;
    fs.rmSync(lockPath, { force: true });
    return true;
  } finally {
    removeLockFileIfOurs(guardPath, guardHolder.token);
  }
}

function removeLockFileIfOurs(lockPath: string, token: string): void {
  const current = readLockFile(lockPath);
  if (current.state === "held" && current.holder.token === token) fs.rmSync(lockPath, { force: true });
}

function releaseAllHeldLocks(): void {
  for (const lock of [...registry.held.values()]) lock.release();
}

/**
 * "exit" covers process.exit() and the natural end of the event loop. A signal ends the process
 * without "exit", so the lock is released on SIGINT/SIGTERM too — but only when nobody else
 * handles the signal: a server that shuts down gracefully (Next does) may still be writing, and
 * calls process.exit() when done, which releases the lock then.
 */
function installExitHandlers(): void {
  if (registry.areExitHandlersInstalled) return;
  registry.areExitHandlersInstalled = true;
  process.on("exit", releaseAllHeldLocks);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    const releaseAndDie = () => {
      if (process.listenerCount(signal) > 1) return;
      process.removeListener(signal, releaseAndDie);
      releaseAllHeldLocks();
      // Re-raised without our listener, the signal ends the process as it would have without us.
      process.kill(process.pid, signal);
    };
    process.on(signal, releaseAndDie);
  }
}

function lockedError(
  dataDir: string,
  lockPath: string,
  holder: PgliteLockHolder,
  reason = "another process has it open",
): AppError {
  const isSameHost = holder.hostname === os.hostname();
  const held = [
    `pid ${holder.pid}${isSameHost ? "" : ` on another host "${holder.hostname}" (this machine cannot check it)`}`,
    `"${holder.label}"`,
    `command: ${holder.command}`,
    `since ${holder.startedAt} (${describeAge(holder.startedAt)})`,
  ].join(", ");
  return new AppError(
    "CONFIGURATION",
    [
      `The PGlite database at ${path.resolve(dataDir)} is locked: ${reason}.`,
      `Held by ${held}.`,
      "PGlite cannot share a data directory: a second process's writes would be silently lost.",
      `What to do: stop that process first (Ctrl+C in its terminal, or \`kill ${holder.pid}\`) and run this again;`,
      "run migrations and seeds only while the app is stopped, or use PostgreSQL (set DATABASE_URL) to run",
      `several processes at once. Delete ${lockPath} by hand only if you are sure that process is not Veridesk.`,
    ].join("\n"),
    { userMessage: "The database is in use by another Veridesk process. Call your administrator." },
  );
}

function describeAge(isoTime: string): string {
  const minutes = Math.round((Date.now() - Date.parse(isoTime)) / 60_000);
  if (Number.isNaN(minutes)) return "unknown age";
  if (minutes < 1) return "less than a minute ago";
  if (minutes < 120) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}

/**
 * A process's state letter (field 3 of /proc/<pid>/stat: R, S, D, Z for a zombie, …) and its start
 * time (field 22). Undefined where /proc does not exist (macOS, Windows): the pid check alone
 * decides there.
 */
function readProcessStat(pid: number): { state: string; startTicks: string | undefined } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2 (the command name) is in parentheses and may contain spaces; count after it.
    const fieldsAfterName = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fieldsAfterName[0] ?? "", startTicks: fieldsAfterName[19] };
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error ? String(error.code) : undefined;
}
