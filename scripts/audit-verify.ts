/**
 * Checks the audit trail's hash chain (ADR 0019) from outside the database's own functions:
 *
 *   npm run audit:verify        (tsx --conditions=react-server scripts/audit-verify.ts)
 *
 * Prints the number of events and the head hash (keep it in the bank's own log: a rewrite of the
 * whole tail by the database owner is caught only against a head hash kept elsewhere). Exits 1
 * naming the first broken event, 2 when it could not read the trail at all.
 * Reads DATABASE_URL (else PGlite in PGLITE_DATA_DIR; refused while the app holds that directory).
 */
import { verifyAuditChain } from "@/lib/audit/chain";
import { openDatabase } from "@/lib/db/client";
import { env } from "@/lib/env";

async function verifyConfiguredTrail(): Promise<number> {
  const settings = env();
  const opened = await openDatabase({
    databaseUrl: settings.DATABASE_URL,
    migrationDatabaseUrl: settings.MIGRATION_DATABASE_URL,
    pgliteDataDir: settings.PGLITE_DATA_DIR,
    label: "npm run audit:verify",
  });
  try {
    const report = await verifyAuditChain(opened.db);
    console.log(`Audit trail: ${opened.driver} at ${opened.location}`);
    console.log(`Events checked: ${report.eventCount} in ${report.durationMs} ms`);
    if (report.firstBreak) {
      console.error(`BROKEN at event ${report.firstBreak.id} (chain_seq ${report.firstBreak.chainSeq}): ${report.firstBreak.message}`);
      console.error(`Last good link: chain_seq ${report.headSeq ?? "none"}, hash ${report.headHash}`);
      return 1;
    }
    console.log(`Chain intact. Head: chain_seq ${report.headSeq ?? "none (empty trail)"}, hash ${report.headHash}`);
    return 0;
  } finally {
    await opened.close();
  }
}

try {
  process.exitCode = await verifyConfiguredTrail();
} catch (error) {
  console.error(`audit:verify could not read the trail.\n${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
