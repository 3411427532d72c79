/**
 * Restores a backup made by `npm run db:backup` (ADR 0042):
 *
 *   npm run db:restore -- --in FILE [--into DIR]
 *       into DIR (default PGLITE_DATA_DIR), which must be absent or empty: a restore never
 *       overwrites a database, and a directory the app holds is refused. Then verifies the audit
 *       chain and checks the counts against the backup's.
 *   npm run db:restore -- --check [--in FILE]
 *       verifies the configured database (DATABASE_URL, else PGLITE_DATA_DIR) and prints its counts;
 *       with FILE, compares them with that backup's. The last step of a PostgreSQL restore
 *       (pg_restore, docs/operations.md).
 *
 * Exits 1 when the restore or a check failed.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { verifyAuditChain } from "@/lib/audit/chain";
import { checkRestored, countRows, readBackupFile, restorePgliteBackup, type RestoreReport } from "@/lib/db/backup";
import { openDatabase } from "@/lib/db/client";
import { env } from "@/lib/env";
import { keyFilePath } from "@/lib/pii/keys";

async function restore(): Promise<number> {
  const { values } = parseArgs({ options: { in: { type: "string" }, into: { type: "string" }, check: { type: "boolean" } } });
  const settings = env();
  if (values.check) return check(values.in);
  if (!values.in) {
    console.error("Usage: npm run db:restore -- --in FILE [--into DIR]   |   npm run db:restore -- --check [--in FILE]");
    return 1;
  }
  if (settings.DATABASE_URL) {
    console.error("DATABASE_URL is set: restore PostgreSQL with pg_restore as the owner role, then run `npm run db:restore -- --check` (docs/operations.md).");
    return 1;
  }
  const backup = readBackupFile(values.in);
  const target = values.into ?? settings.PGLITE_DATA_DIR;
  console.log(`Restoring the backup of ${backup.manifest.createdAt} into ${path.resolve(target)}…`);
  const report = await restorePgliteBackup(backup, target, verifyAuditChain);
  printReport(report, true);
  const keyFile = keyFilePath({ PGLITE_DATA_DIR: target });
  console.log("");
  if (settings.PII_ENCRYPTION_KEY) {
    console.log("Customer data is read with PII_ENCRYPTION_KEY and PII_INDEX_KEY: they must be the keys the backed-up app used.");
  } else if (fs.existsSync(keyFile)) {
    console.log(`Key file found at ${keyFile}: it must be the one the backed-up app used.`);
  } else {
    console.log(`NO KEY FILE at ${keyFile}. Copy the backed-up app's key file there BEFORE starting the app on this`);
    console.log("directory: started without it, the app makes new keys and the restored customer data stays unreadable.");
  }
  console.log("Start the app with the backed-up server's AUTH_SECRET: the staff's authenticator secrets are encrypted");
  console.log("with it, and under another value no one with a second factor can finish signing in.");
  return 0;
}

async function check(backupFile: string | undefined): Promise<number> {
  const settings = env();
  const expected = backupFile ? readBackupFile(backupFile).manifest.counts : undefined;
  const opened = await openDatabase({
    databaseUrl: settings.DATABASE_URL,
    migrationDatabaseUrl: settings.MIGRATION_DATABASE_URL,
    pgliteDataDir: settings.PGLITE_DATA_DIR,
    label: "npm run db:restore -- --check",
  });
  try {
    const actual = expected ?? (await countRows(opened.db));
    printReport(await checkRestored(opened.db, verifyAuditChain, actual, opened.location, opened.migrations.applied), expected !== undefined);
    if (!expected) console.log("(No backup file given: counts printed, not compared.)");
    return 0;
  } finally {
    await opened.close();
  }
}

function printReport(report: RestoreReport, compared: boolean): void {
  const { counts } = report;
  console.log(`Database: ${report.location}`);
  if (report.migrationsApplied.length > 0) console.log(`Migrations applied on top of the backup: ${report.migrationsApplied.join(", ")}`);
  console.log(`Audit chain verified: ${report.eventsChecked} events. Head: chain_seq ${report.auditHead.chainSeq ?? "none (empty trail)"}, hash ${report.auditHead.hash}`);
  console.log(`Counts: ${counts.staff} staff, ${counts.tokens} tokens, ${counts.auditEvents} audit events${compared ? " (as in the backup)" : ""}`);
}

try {
  process.exitCode = await restore();
} catch (error) {
  console.error(`db:restore failed.\n${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
