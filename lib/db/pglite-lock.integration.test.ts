import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquirePgliteLock, lockPathFor, type PgliteLockHolder } from "./pglite-lock";
import { branches } from "./schema";
import { makeScratchDatabase, pgliteDataDirOf, type UnopenedScratchDatabase } from "@/test/kit/database";

const fixturePath = path.join(process.cwd(), "test", "kit", "pglite-writer.ts");
const HOLDER_LABEL = "pglite-lock test (holder)";
// Opening a new PGlite directory (initdb + migrations) takes several seconds here.
const SLOW = 120_000;

// A directory of its own per test, opened by this process and by a second one.
let scratch: UnopenedScratchDatabase;
let dataDir: string;

beforeEach(async () => {
  scratch = await makeScratchDatabase({ driver: "pglite", name: "pglite-lock" });
  dataDir = pgliteDataDirOf(scratch);
});

afterEach(async () => {
  await scratch.destroy();
});

interface ProcessOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the fixture as a real, separate Node process, as `npm run db:seed` or a second app would be. */
function startSecondProcess(branchCode: string, mode?: "hold") {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", fixturePath, dataDir, branchCode, ...(mode ? [mode] : [])],
    { cwd: process.cwd(), env: { ...process.env, LOG_LEVEL: "silent" } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<ProcessOutcome>((resolve) =>
    child.on("close", (exitCode, signal) => resolve({ exitCode, signal, stdout, stderr })),
  );
  const printed = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => stdout.includes(`${line}\n`) && resolve();
      child.stdout.on("data", check);
      void finished.then((outcome) => reject(new Error(`exited before printing "${line}": ${outcome.stderr}`)));
    });
  return { child, finished, printed };
}

async function readBranchCodes(): Promise<string[]> {
  const opened = await scratch.open(HOLDER_LABEL);
  try {
    const rows = await opened.db.select({ code: branches.code }).from(branches).orderBy(branches.code);
    return rows.map((row) => row.code);
  } finally {
    await opened.close();
  }
}

function readLockHolder(): PgliteLockHolder {
  return JSON.parse(fs.readFileSync(lockPathFor(dataDir), "utf8")) as PgliteLockHolder;
}

function writeLockFile(holder: Partial<PgliteLockHolder>): void {
  const complete: PgliteLockHolder = {
    pid: process.pid,
    label: "a previous run",
    command: "node earlier.js",
    hostname: os.hostname(),
    startedAt: new Date(Date.now() - 3_600_000).toISOString(),
    token: "earlier-token",
    ...holder,
  };
  fs.writeFileSync(lockPathFor(dataDir), JSON.stringify(complete));
}

/** The pid of a process that has just ended, so that no process has it (barring instant reuse). */
async function pidOfEndedProcess(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.on("close", resolve));
  if (child.pid === undefined) throw new Error("could not start a short-lived process");
  return child.pid;
}

describe("the PGlite data directory lock", () => {
  it(
    "refuses a second process while this one holds the directory, naming the holder, and keeps this process's writes",
    async () => {
      const opened = await scratch.open(HOLDER_LABEL);
      await opened.db.insert(branches).values({ code: "BEFORE", name: "Written before the second process" });

      const refused = await startSecondProcess("SECOND").finished;

      expect(refused.exitCode).toBe(3);
      expect(refused.stdout).not.toContain("opened");
      expect(refused.stderr).toContain(`${dataDir} is locked`);
      expect(refused.stderr).toContain(`pid ${process.pid}`);
      expect(refused.stderr).toContain(`"${HOLDER_LABEL}"`);
      expect(refused.stderr).toMatch(/since \d{4}-\d\d-\d\dT/);
      expect(refused.stderr).toContain("stop that process first");

      await opened.db.insert(branches).values({ code: "AFTER", name: "Written after the second process" });
      await opened.close();
      expect(fs.existsSync(lockPathFor(dataDir))).toBe(false);

      expect(await readBranchCodes()).toEqual(["AFTER", "BEFORE"]);

      // Control: once the directory is free, the same process does open it and write.
      const allowed = await startSecondProcess("SECOND").finished;
      expect(allowed.stderr).toBe("");
      expect(allowed.exitCode).toBe(0);
      expect(await readBranchCodes()).toEqual(["AFTER", "BEFORE", "SECOND"]);
    },
    SLOW,
  );

  it(
    "is released when its holder is stopped with SIGTERM, and the holder's write survives",
    async () => {
      const holder = startSecondProcess("HELD", "hold");
      await holder.printed("holding");
      expect(readLockHolder()).toMatchObject({ pid: holder.child.pid, label: "open-and-write test fixture" });

      holder.child.kill("SIGTERM");
      const outcome = await holder.finished;

      expect(outcome.signal).toBe("SIGTERM");
      expect(fs.existsSync(lockPathFor(dataDir))).toBe(false);
      expect(await readBranchCodes()).toEqual(["HELD"]);
    },
    SLOW,
  );

  it(
    "takes over the lock of a process that is no longer running",
    async () => {
      writeLockFile({ pid: await pidOfEndedProcess(), label: "a crashed run" });

      const opened = await scratch.open(HOLDER_LABEL);
      try {
        expect(readLockHolder()).toMatchObject({ pid: process.pid, label: HOLDER_LABEL });
        await opened.db.insert(branches).values({ code: "TAKEN", name: "Written after the takeover" });
      } finally {
        await opened.close();
      }
      expect(fs.existsSync(lockPathFor(dataDir))).toBe(false);
    },
    SLOW,
  );

  it("refuses when the recorded process is still running", async () => {
    const sleeper = spawn("sleep", ["30"]);
    try {
      writeLockFile({ pid: sleeper.pid, label: "a live process" });
      await expect(acquirePgliteLock(dataDir, HOLDER_LABEL)).rejects.toThrow(
        new RegExp(`Held by pid ${sleeper.pid}, "a live process"`),
      );
      expect(readLockHolder().pid).toBe(sleeper.pid);
    } finally {
      sleeper.kill();
    }
  });

  it.runIf(process.platform === "linux")("takes over when the recorded pid now belongs to another program", async () => {
    const unrelated = spawn("sleep", ["30"]);
    try {
      writeLockFile({ pid: unrelated.pid, label: "a run long gone", processStartTicks: "1" });
      const lock = await acquirePgliteLock(dataDir, HOLDER_LABEL);
      expect(lock.tookOverFrom).toMatchObject({ pid: unrelated.pid, label: "a run long gone" });
      expect(readLockHolder().pid).toBe(process.pid);
      lock.release();
    } finally {
      unrelated.kill();
    }
  });

  it.runIf(process.platform === "linux")("takes over from a holder killed and not yet reaped (a zombie)", async () => {
    // `sleep 0` ends at once; its parent then becomes `sleep 30`, which never waits for it, so it
    // stays a zombie, as a killed app does under an init that reaps late.
    const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 30"]);
    try {
      const zombiePid = Number(await new Promise<string>((resolve) => parent.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()))));
      const statOf = () => {
        const stat = fs.readFileSync(`/proc/${zombiePid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      };
      await expect.poll(() => statOf()[0]).toBe("Z");
      writeLockFile({ pid: zombiePid, label: "an app killed a moment ago", processStartTicks: statOf()[19] });
      const lock = await acquirePgliteLock(dataDir, HOLDER_LABEL);
      expect(lock.tookOverFrom).toMatchObject({ pid: zombiePid, label: "an app killed a moment ago" });
      lock.release();
    } finally {
      parent.kill();
    }
  });

  it("takes over a damaged lock file", async () => {
    fs.writeFileSync(lockPathFor(dataDir), "{ not json");
    const lock = await acquirePgliteLock(dataDir, HOLDER_LABEL);
    expect(lock.tookOverFrom).toBe("unreadable lock file");
    expect(readLockHolder().token).toBe(lock.holder.token);
    lock.release();
    expect(fs.existsSync(lockPathFor(dataDir))).toBe(false);
  });

  it("refuses a second open of the same directory within one process", async () => {
    const lock = await acquirePgliteLock(dataDir, HOLDER_LABEL);
    try {
      await expect(acquirePgliteLock(path.join(dataDir, "..", "pglite"), "another module")).rejects.toThrow(
        /this process itself has it open already/,
      );
    } finally {
      lock.release();
    }
  });

  it("never removes a lock file that another process has taken since", async () => {
    const lock = await acquirePgliteLock(dataDir, HOLDER_LABEL);
    writeLockFile({ pid: 1, label: "someone after us", token: "their-token" });
    lock.release();
    expect(readLockHolder().token).toBe("their-token");
  });
});
