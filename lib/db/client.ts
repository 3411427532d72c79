import "server-only";
import path from "node:path";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { openPglite, openPostgres } from "./drivers";
import { migratePglite, migratePostgres } from "./migrate";
import type { Database, OpenedDatabase } from "./types";

/**
 * The one way to the database. `DATABASE_URL` set → PostgreSQL through node-postgres; unset →
 * the embedded PGlite in `PGLITE_DATA_DIR`, owned by this process alone (see pglite-lock.ts).
 * Nothing opens at import, so `next build` never touches a database; the drivers (drivers.ts) are
 * imported only when chosen, so a PostgreSQL deployment never loads PGlite's WebAssembly.
 * Opening migrates (migrate.ts); the encryption backfill of older rows is not part of it: the
 * server start (instrumentation) and `npm run db:migrate` run it after opening.
 */

export interface DatabaseSettings {
  /** PostgreSQL connection URL; when absent, PGlite at `pgliteDataDir`. */
  databaseUrl?: string;
  /**
   * The owner role's URL (ADR 0019): migrations run as it, then `databaseUrl`'s role is granted
   * what the app needs and no more. Unset: migrations run as `databaseUrl`'s role, and are skipped
   * when none is pending (so an app role without CREATE rights starts on a migrated database).
   */
  migrationDatabaseUrl?: string;
  pgliteDataDir: string;
  /** Who opens it, shown to any process the PGlite lock refuses ("npm run dev", "db:migrate"). */
  label?: string;
}

/** Opens a database with explicit settings and brings its schema up to date. */
export async function openDatabase(settings: DatabaseSettings): Promise<OpenedDatabase> {
  if (settings.databaseUrl) {
    const migrations = await migratePostgres(settings.databaseUrl, settings.migrationDatabaseUrl);
    const postgres = await openPostgres(settings.databaseUrl);
    return { ...postgres, driver: "postgres", migrations };
  }
  const pglite = await openPglite(settings.pgliteDataDir, settings.label ?? describeProcess());
  try {
    const migrations = await migratePglite(pglite.db, pglite.client);
    return { db: pglite.db, driver: "pglite", location: pglite.location, migrations, close: pglite.close };
  } catch (error) {
    await pglite.close();
    throw error;
  }
}

export function describeProcess(): string {
  const npmScript = process.env.npm_lifecycle_event;
  return npmScript ? `npm run ${npmScript}` : path.basename(process.argv[1] ?? process.argv0);
}

// ─── The process's own database ─────────────────────────────────────────────────────────────────

// On globalThis so that dev hot reload, which re-evaluates this module, reuses the open database
// instead of opening a second one (which the PGlite lock would refuse).
const globalForDb = globalThis as typeof globalThis & { verideskDatabase?: Promise<OpenedDatabase> };

/** The database of this process, per `env()`, opened and migrated on first use. */
export async function getDb(): Promise<Database> {
  globalForDb.verideskDatabase ??= openFromSettings();
  return (await globalForDb.verideskDatabase).db;
}

function openFromSettings(): Promise<OpenedDatabase> {
  const settings = env();
  const opening = openDatabase({
    databaseUrl: settings.DATABASE_URL,
    migrationDatabaseUrl: settings.MIGRATION_DATABASE_URL,
    pgliteDataDir: settings.PGLITE_DATA_DIR,
  });
  opening.then(
    (opened) =>
      logger.info(
        { driver: opened.driver, location: opened.location, migrations: opened.migrations },
        "database opened",
      ),
    () => {
      // A failed open is not cached: the next call tries again (e.g. once the lock holder stopped).
      if (globalForDb.verideskDatabase === opening) globalForDb.verideskDatabase = undefined;
    },
  );
  return opening;
}

/** Closes the process's database (scripts and tests); the next `getDb()` opens it again. */
export async function closeDb(): Promise<void> {
  const opening = globalForDb.verideskDatabase;
  globalForDb.verideskDatabase = undefined;
  const opened = await opening?.catch(() => undefined);
  await opened?.close();
}
