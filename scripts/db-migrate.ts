/**
 * Brings the configured database (DATABASE_URL, else PGlite in PGLITE_DATA_DIR) up to date with the
 * committed migrations in drizzle/, and says what it did. Then it encrypts the reference and phone
 * numbers of rows written before they were encrypted (ADR 0023; nothing to do once done), and indexes
 * the phones of tokens issued before the phone's blind index existed. With MIGRATION_DATABASE_URL (the owner
 * role) it migrates as the owner and grants DATABASE_URL's role only what the app needs (ADR 0019). On PGlite it takes the directory's lock
 * like any other process, so it is refused while the app runs on the same directory.
 *
 *   tsx --conditions=react-server scripts/db-migrate.ts      (npm run db:migrate)
 *
 * `--conditions=react-server` makes `server-only`, imported by every lib/db module, resolve to its
 * empty server build instead of throwing.
 */
import { isMainModule } from "./support/main-module";
import { openDatabase } from "@/lib/db/client";
import type { OpenedDatabase } from "@/lib/db/types";
import { env } from "@/lib/env";
import { backfillContactEncryption, backfillPhoneNumberIndex } from "@/lib/pii/backfill";
import { getPiiKeys } from "@/lib/pii/keys";

/** Migrates and backfills, saying what it did; throws on failure. */
export async function migrateConfiguredDatabase(): Promise<void> {
  const opened = await openConfiguredDatabase("npm run db:migrate");
  try {
    await reportMigrationsAndBackfill(opened);
  } finally {
    await opened.close();
  }
}

/** Opens (and so migrates) the configured database: DATABASE_URL, else PGlite in PGLITE_DATA_DIR. */
export function openConfiguredDatabase(label: string): Promise<OpenedDatabase> {
  const settings = env();
  return openDatabase({
    databaseUrl: settings.DATABASE_URL,
    migrationDatabaseUrl: settings.MIGRATION_DATABASE_URL,
    pgliteDataDir: settings.PGLITE_DATA_DIR,
    label,
  });
}

/**
 * Says what opening `opened` migrated, then runs the backfills; throws on failure. Leaves it open
 * (scripts/db-prepare.ts goes on seeding through the same connection rather than open it twice).
 */
export async function reportMigrationsAndBackfill(opened: OpenedDatabase): Promise<void> {
  const { applied, alreadyApplied, durationMs } = opened.migrations;
  console.log(`Database: ${opened.driver} at ${opened.location}`);
  if (applied.length === 0) {
    console.log(`Up to date: all ${alreadyApplied} migrations were already applied (${durationMs} ms).`);
  } else {
    console.log(`Applied ${applied.length} migration(s) in ${durationMs} ms (${alreadyApplied} already applied):`);
    for (const tag of applied) console.log(`  + ${tag}`);
  }
  // Keys are asked for only when a row needs them, so a fresh database migrates without any.
  const encrypted = await backfillContactEncryption(opened.db, getPiiKeys);
  console.log(encrypted === 0 ? "Contact encryption: no older rows left in clear." : `Contact encryption: encrypted the reference and phone numbers of ${encrypted} older token(s).`);
  // Tokens issued before the phone's blind index existed: the risk rules' "same phone" sees them too.
  const phones = await backfillPhoneNumberIndex(opened.db, getPiiKeys);
  console.log(phones.indexed === 0 ? "Phone index: no older phone left without one." : `Phone index: indexed the phone of ${phones.indexed} older token(s).`);
  if (phones.unreadable > 0) {
    console.warn(`Phone index: ${phones.unreadable} phone(s) could not be decrypted with the configured keys (a restore without its keys?): left without an index.`);
  }
}

if (isMainModule(import.meta.url)) {
  try {
    await migrateConfiguredDatabase();
  } catch (error) {
    console.error(`db:migrate failed.\n${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
