/**
 * Brings the configured database (DATABASE_URL, else PGlite in PGLITE_DATA_DIR) up to date with the
 * committed migrations in drizzle/, and says what it did. With MIGRATION_DATABASE_URL (the owner
 * role) it migrates as the owner and grants DATABASE_URL's role only what the app needs (ADR 0019). On PGlite it takes the directory's lock
 * like any other process, so it is refused while the app runs on the same directory.
 *
 *   tsx --conditions=react-server scripts/db-migrate.ts      (npm run db:migrate)
 *
 * `--conditions=react-server` makes `server-only`, imported by every lib/db module, resolve to its
 * empty server build instead of throwing.
 */
import { openDatabase } from "@/lib/db/client";
import { env } from "@/lib/env";

async function migrateConfiguredDatabase(): Promise<void> {
  const settings = env();
  const opened = await openDatabase({
    databaseUrl: settings.DATABASE_URL,
    migrationDatabaseUrl: settings.MIGRATION_DATABASE_URL,
    pgliteDataDir: settings.PGLITE_DATA_DIR,
    label: "npm run db:migrate",
  });
  try {
    const { applied, alreadyApplied, durationMs } = opened.migrations;
    console.log(`Database: ${opened.driver} at ${opened.location}`);
    if (applied.length === 0) {
      console.log(`Up to date: all ${alreadyApplied} migrations were already applied (${durationMs} ms).`);
    } else {
      console.log(`Applied ${applied.length} migration(s) in ${durationMs} ms (${alreadyApplied} already applied):`);
      for (const tag of applied) console.log(`  + ${tag}`);
    }
  } finally {
    await opened.close();
  }
}

try {
  await migrateConfiguredDatabase();
} catch (error) {
  console.error(`db:migrate failed.\n${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
