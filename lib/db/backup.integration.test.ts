import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAuditEvent } from "@/lib/audit";
import { verifyAuditChain } from "@/lib/audit/chain";
import { aBranch, aStaffMember, aTokenRequest } from "@/test/kit/builders";
import { openScratchDatabase, pgliteDataDirOf, type ScratchDatabase } from "@/test/kit/database";
import { scratchDirectoriesPerTest } from "@/test/kit/directories";
import { backupSocketPathFor } from "./backup-socket";
import { looseModesIn } from "./data-dir-mode";
import { countRows, readBackupFile, restorePgliteBackup, takePgliteBackup, writeBackupFile } from "./backup";

/**
 * Backups a branch can restore (ADR 0042): taken from a PGlite directory that a process owns and
 * keeps writing to (as the running app does, through its control socket), restored into a fresh
 * directory with the same counts and an intact audit chain; a restore never writes over a database.
 */

const SLOW = 60_000;
const newDirectory = scratchDirectoriesPerTest("backup");
let scratch: ScratchDatabase;

beforeAll(async () => {
  scratch = await openScratchDatabase({ driver: "pglite", name: "backup" });
  const { db } = scratch.opened;
  const branch = await aBranch(db);
  const teller = await aStaffMember(db, { role: "teller", branchId: branch.id });
  await aStaffMember(db, { role: "supervisor", branchId: branch.id });
  for (let index = 0; index < 3; index += 1) await aTokenRequest(db, { branchId: branch.id, issuedByUserId: teller.userId });
  for (let index = 0; index < 5; index += 1) {
    await recordAuditEvent(db, { action: "test.backup", actor: null, actorLabel: "backup test", details: { index } });
  }
}, SLOW);

afterAll(async () => {
  await scratch?.destroy();
});

describe("db:backup and db:restore on PGlite", () => {
  it("backs up a directory its owner keeps writing to, and restores it with the same counts and an intact chain", async () => {
    const { db } = scratch.opened;
    const dataDir = pgliteDataDirOf(scratch);
    // This process owns the directory, as the app does: a second opener would be refused, so the
    // backup must come through the owner's control socket.
    expect(fs.existsSync(backupSocketPathFor(dataDir))).toBe(true);
    expect((fs.statSync(path.dirname(backupSocketPathFor(dataDir))).mode & 0o777).toString(8)).toBe("700");

    const before = await countRows(db);
    let isBackingUp = true;
    let written = 0;
    const writer = (async () => {
      // Bounded, with pauses: on a busy machine an unbounded writer would starve the dump it races.
      while (isBackingUp && written < 20) {
        await db.transaction(async (tx) => {
          await recordAuditEvent(tx, { action: "test.during_backup", actor: null, actorLabel: "writer", details: { written } });
          await recordAuditEvent(tx, { action: "test.during_backup_second", actor: null, actorLabel: "writer", details: { written } });
        });
        written += 1;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const backup = await takePgliteBackup(dataDir, verifyAuditChain).finally(() => {
      isBackingUp = false;
    });
    await writer;

    expect(backup.manifest).toMatchObject({ takenFrom: "running app", containsEncryptionKeys: false, driver: "pglite" });
    expect(backup.manifest.counts.staff).toBe(before.staff);
    expect(backup.manifest.counts.tokens).toBe(before.tokens);
    // Whatever the writer had committed when the copy was taken, and never half a transaction.
    expect(backup.manifest.counts.auditEvents).toBeGreaterThanOrEqual(before.auditEvents);
    expect((backup.manifest.counts.auditEvents - before.auditEvents) % 2).toBe(0);
    expect(backup.manifest.schema.migrations).toBeGreaterThan(0);

    const file = path.join(newDirectory(), "branch.vbk");
    writeBackupFile(file, backup);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const read = readBackupFile(file);
    expect(read.manifest).toEqual(backup.manifest);

    // Into an empty directory an operator made with the usual umask (0755): the restore keeps it to its owner.
    const target = path.join(newDirectory(), "restored", "pglite");
    fs.mkdirSync(target, { recursive: true, mode: 0o755 });
    fs.chmodSync(target, 0o755);
    const report = await restorePgliteBackup(read, target, verifyAuditChain);
    expect(fs.statSync(target).mode & 0o777).toBe(0o700);
    // PGlite rewrites its relcache init files (no table data) at 0644 while open; every other file is 0600.
    expect([...looseModesIn(target)].filter(([file]) => !file.endsWith("pg_internal.init"))).toEqual([]);
    expect(report.counts).toEqual(backup.manifest.counts);
    expect(report.auditHead).toEqual(backup.manifest.auditHead);
    expect(report.migrationsApplied).toEqual([]);
    // The source kept its own later events and is still whole.
    expect((await verifyAuditChain(db)).firstBreak).toBeNull();
  }, SLOW);

  it("refuses to restore over a database, or into a directory with anything in it", async () => {
    const backup = await takePgliteBackup(pgliteDataDirOf(scratch), verifyAuditChain);
    await expect(restorePgliteBackup(backup, pgliteDataDirOf(scratch), verifyAuditChain)).rejects.toThrow(/is not empty: a restore never overwrites a database/);

    const cluttered = newDirectory();
    fs.writeFileSync(path.join(cluttered, "notes.txt"), "kept");
    await expect(restorePgliteBackup(backup, cluttered, verifyAuditChain)).rejects.toThrow(/is not empty/);
    expect(fs.readdirSync(cluttered)).toEqual(["notes.txt"]);
  }, SLOW);
});
