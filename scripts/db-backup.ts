/**
 * A backup of the embedded (PGlite) database, safe while the app runs (ADR 0042):
 *
 *   npm run db:backup -- --out FILE
 *
 * Asks the running app for a consistent copy through its control socket, or opens PGLITE_DATA_DIR
 * itself when no app holds it. The copy is opened and its audit chain verified before FILE is
 * written (mode 0600). The encryption keys are never in it: the script says where they are.
 * On PostgreSQL (DATABASE_URL set) it refuses and points to pg_dump (docs/operations.md).
 * Exits 1 when it could not make the backup.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { verifyAuditChain } from "@/lib/audit/chain";
import { takePgliteBackup, writeBackupFile } from "@/lib/db/backup";
import { env } from "@/lib/env";
import { keyFilePath } from "@/lib/pii/keys";

async function backUp(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  if (!values.out) {
    console.error("Usage: npm run db:backup -- --out FILE");
    return 1;
  }
  const settings = env();
  if (settings.DATABASE_URL) {
    console.error(
      "DATABASE_URL is set: back up PostgreSQL with pg_dump as the owner role (docs/operations.md, \"Backups and restores\").",
    );
    return 1;
  }
  const backup = await takePgliteBackup(settings.PGLITE_DATA_DIR, verifyAuditChain);
  writeBackupFile(values.out, backup);
  const { counts, auditHead, schema, takenFrom } = backup.manifest;
  console.log(`Backup written: ${path.resolve(values.out)} (${backup.dump.length} bytes of data, mode 0600)`);
  console.log(`Taken from the ${takenFrom} at ${path.resolve(settings.PGLITE_DATA_DIR)}; schema: ${schema.migrations} migrations`);
  console.log(`Counts: ${counts.staff} staff, ${counts.tokens} tokens, ${counts.auditEvents} audit events`);
  console.log(`Audit chain verified. Head: chain_seq ${auditHead.chainSeq ?? "none (empty trail)"}, hash ${auditHead.hash}`);
  console.log("");
  console.log("THE ENCRYPTION KEYS ARE NOT IN THIS BACKUP.");
  if (settings.PII_ENCRYPTION_KEY) {
    console.log("They come from PII_ENCRYPTION_KEY and PII_INDEX_KEY in this server's environment.");
  } else {
    console.log(`They are in the key file ${keyFilePath(settings)}.`);
  }
  console.log("Without them the customers' encrypted data in this backup cannot be read by anyone, you included.");
  console.log("Keep a copy of them separately from the backups (a different place, a different person's care).");
  console.log("Keep AUTH_SECRET with them: the staff's authenticator secrets are encrypted with it, and a restored");
  console.log("app started with another value signs no one in with a second factor.");
  return 0;
}

try {
  process.exitCode = await backUp();
} catch (error) {
  console.error(`db:backup failed.\n${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
