import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { grantAppRole, roleOf } from "./grants";
import type { Database, MigrationReport } from "./types";

/**
 * Brings a database's schema up to the committed migrations in drizzle/, and says what it did.
 * Also answers, for readiness, which migrations a database still lacks.
 */

/** Runs one SQL text on the driver's own client; both answer `{ rows }`. */
type QueryRows = (text: string) => Promise<{ rows: unknown[] }>;

// Next bundles server code elsewhere, so the committed migrations are found from where the app
// was started: the repository root, for `npm start`, `npm run dev`, the scripts and the tests.
export const migrationsFolder = () => path.join(process.cwd(), "drizzle");

/** Migrates an open PGlite database through its own client. */
export async function migratePglite(db: Database, client: PGlite): Promise<MigrationReport> {
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  return migrateWithReport(
    (text) => client.query(text),
    // The PGlite migrator wants its own driver's database type; `db` is that database.
    () => migrate(db as unknown as Parameters<typeof migrate>[0], { migrationsFolder: migrationsFolder() }),
  );
}

/**
 * Migrates PostgreSQL as the owner (`ownerUrl`, or `databaseUrl` when there is no separate owner),
 * then grants the app role what it needs (ADR 0019).
 */
export async function migratePostgres(databaseUrl: string, ownerUrl?: string): Promise<MigrationReport> {
  const [{ Client }, { drizzle }, { migrate }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
    import("drizzle-orm/node-postgres/migrator"),
  ]);
  // Several app instances may start at once: an advisory lock, held on one connection for the
  // whole run, lets one of them migrate while the others wait and then find nothing to do.
  const migrationClient = new Client({ connectionString: ownerUrl ?? databaseUrl });
  await migrationClient.connect();
  try {
    await migrationClient.query("SELECT pg_advisory_lock(hashtext('veridesk:migrations'))");
    const migrations = await migrateWithReport(
      (text) => migrationClient.query(text),
      () => migrate(drizzle({ client: migrationClient }), { migrationsFolder: migrationsFolder() }),
    );
    if (ownerUrl) await grantAppRole(migrationClient, roleOf(databaseUrl));
    return migrations;
  } finally {
    // Ending the session releases the advisory lock even if the unlock was never reached.
    await migrationClient.end();
  }
}

/**
 * Applies the pending migrations and says which they were. Drizzle's migrator applies every
 * journal entry newer than the newest row of its `drizzle.__drizzle_migrations` table, so the same
 * comparison, made before it runs, names them.
 */
export async function migrateWithReport(queryRows: QueryRows, migrate: () => Promise<void>): Promise<MigrationReport> {
  const startedAt = performance.now();
  const journal = readMigrationJournal();
  const newestApplied = await readNewestAppliedMigrationTime(queryRows);
  const pending = journal.filter((entry) => newestApplied === undefined || entry.when > newestApplied);
  // Nothing to do: not even the migrator's own CREATE SCHEMA IF NOT EXISTS, which PostgreSQL
  // refuses to a role without CREATE on the database (the app role) even when the schema exists.
  if (pending.length > 0) await migrate();
  return {
    applied: pending.map((entry) => entry.tag),
    alreadyApplied: journal.length - pending.length,
    durationMs: Math.round(performance.now() - startedAt),
  };
}

/**
 * The committed migrations this database lacks (readiness: a server whose schema is behind its
 * code must not be sent work). Empty when it is current.
 */
export async function pendingMigrations(db: Database): Promise<string[]> {
  const newestApplied = await readNewestAppliedMigrationTime(async (text) => (await db.execute(sql.raw(text))) as unknown as { rows: unknown[] });
  return readMigrationJournal()
    .filter((entry) => newestApplied === undefined || entry.when > newestApplied)
    .map((entry) => entry.tag);
}

export async function readNewestAppliedMigrationTime(queryRows: QueryRows): Promise<number | undefined> {
  const [table] = (await queryRows("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists"))
    .rows as { exists: boolean }[];
  if (!table?.exists) return undefined;
  const [newest] = (await queryRows("SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations"))
    .rows as { newest: string | null }[];
  return newest?.newest == null ? undefined : Number(newest.newest);
}

export function readMigrationJournal(): { tag: string; when: number }[] {
  const journalPath = path.join(migrationsFolder(), "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { tag: string; when: number }[] };
  return journal.entries;
}
