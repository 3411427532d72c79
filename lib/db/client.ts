import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { backfillContactEncryption } from "@/lib/pii/backfill";
import { getPiiKeys, type PiiKeys } from "@/lib/pii/keys";
import { acquirePgliteLock } from "./pglite-lock";
import { runPgliteReadsAsNamedStatements } from "./prepared";
import * as schema from "./schema";
import type { Database, MigrationReport, OpenedDatabase } from "./types";

/**
 * The one way to the database. `DATABASE_URL` set → PostgreSQL through node-postgres; unset →
 * the embedded PGlite in `PGLITE_DATA_DIR`, owned by this process alone (see pglite-lock.ts).
 * Nothing opens at import, so `next build` never touches a database; the drivers themselves are
 * imported only when chosen, so a PostgreSQL deployment never loads PGlite's WebAssembly.
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
  /** Keys for the post-migration encryption backfill (default: this process's, asked only if a row needs them). */
  piiKeys?: () => PiiKeys;
}



/** Runs one SQL text on the driver's own client; both answer `{ rows }`. */
type QueryRows = (text: string) => Promise<{ rows: unknown[] }>;

// Next bundles server code elsewhere, so the committed migrations are found from where the app
// was started: the repository root, for `npm start`, `npm run dev`, the scripts and the tests.
const migrationsFolder = () => path.join(process.cwd(), "drizzle");

/** Opens a database with explicit settings and brings its schema up to date. */
export async function openDatabase(settings: DatabaseSettings): Promise<OpenedDatabase> {
  const label = settings.label ?? describeProcess();
  const opened = settings.databaseUrl ? await openPostgres(settings.databaseUrl, settings.migrationDatabaseUrl) : await openPglite(settings.pgliteDataDir, label);
  try {
    // Rows written before the reference and phones were encrypted (ADR 0023); a no-op once done.
    const encrypted = await backfillContactEncryption(opened.db, settings.piiKeys ?? getPiiKeys);
    if (encrypted > 0) logger.info({ rows: encrypted }, "encrypted the reference and phone numbers of older tokens");
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}

async function openPglite(dataDir: string, label: string): Promise<OpenedDatabase> {
  const location = path.resolve(dataDir);
  // The lock comes first: a refused process must not even start PGlite on the directory.
  const lock = await acquirePgliteLock(location, label);
  if (lock.tookOverFrom) {
    logger.warn({ lockPath: lock.lockPath, previousHolder: lock.tookOverFrom }, "took over a stale PGlite lock");
  }
  let client: PGlite | undefined;
  try {
    const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("drizzle-orm/pglite"),
      import("drizzle-orm/pglite/migrator"),
    ]);
    const pglite = await PGlite.create(location);
    client = pglite;
    const db = drizzle({ client: pglite, schema });
    const { pgliteNamedStatementClient } = await import("./pglite-named-statement");
    // drizzle asks its client for query() alone, which the named client answers (ADR 0036). One
    // client per name, whichever copy of a module asks: it knows whether its statement is prepared.
    const namedReads = new Map<string, Database>();
    runPgliteReadsAsNamedStatements(db, (name) => {
      let named = namedReads.get(name);
      if (!named) {
        named = drizzle({ client: pgliteNamedStatementClient(pglite, name) as PGlite, schema });
        namedReads.set(name, named);
      }
      return named;
    });
    const migrations = await migrateWithReport(
      (text) => pglite.query(text),
      () => migrate(db, { migrationsFolder: migrationsFolder() }),
    );
    return {
      db,
      driver: "pglite",
      location,
      migrations,
      close: once(async () => {
        try {
          await pglite.close();
        } finally {
          lock.release();
        }
      }),
    };
  } catch (error) {
    await client?.close().catch(() => undefined);
    lock.release();
    throw error;
  }
}

async function openPostgres(databaseUrl: string, migrationDatabaseUrl?: string): Promise<OpenedDatabase> {
  const [{ Client, Pool }, { drizzle }, { migrate }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
    import("drizzle-orm/node-postgres/migrator"),
  ]);

  // Several app instances may start at once: an advisory lock, held on one connection for the
  // whole run, lets one of them migrate while the others wait and then find nothing to do.
  const migrationClient = new Client({ connectionString: migrationDatabaseUrl ?? databaseUrl });
  await migrationClient.connect();
  let migrations: MigrationReport;
  try {
    await migrationClient.query("SELECT pg_advisory_lock(hashtext('veridesk:migrations'))");
    migrations = await migrateWithReport(
      (text) => migrationClient.query(text),
      () => migrate(drizzle({ client: migrationClient }), { migrationsFolder: migrationsFolder() }),
    );
    if (migrationDatabaseUrl) await grantAppRole(migrationClient, roleOf(databaseUrl));
  } finally {
    // Ending the session releases the advisory lock even if the unlock was never reached.
    await migrationClient.end();
  }

  const pool = new Pool({ connectionString: databaseUrl });
  // An idle connection dropped by the server emits "error" on the pool; unhandled, it kills the process.
  pool.on("error", (error) => logger.error({ err: error }, "idle PostgreSQL connection failed"));
  return {
    db: drizzle({ client: pool, schema }),
    driver: "postgres",
    location: describeUrlWithoutPassword(databaseUrl),
    migrations,
    close: once(() => pool.end()),
  };
}

/**
 * What the app's role may do once the owner has migrated (ADR 0019): read and write its tables,
 * but only INSERT and SELECT on the audit trail. It owns nothing, so it can neither set the
 * append-only and chain triggers aside nor alter the table. Run after every migration, so tables
 * added later are granted too; idempotent.
 */
async function grantAppRole(owner: { query: (text: string) => Promise<{ rows: unknown[] }> }, appRole: string): Promise<void> {
  const [me] = (await owner.query("SELECT current_user AS name")).rows as { name: string }[];
  if (me?.name === appRole) return;
  const role = `"${appRole.replace(/"/g, '""')}"`;
  await owner.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
  await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
  await owner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
  await owner.query(`REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON public.audit_events FROM ${role}`);
  // The app checks at start that nothing is pending: it reads the migrator's journal.
  await owner.query(`GRANT USAGE ON SCHEMA drizzle TO ${role}`);
  await owner.query(`GRANT SELECT ON drizzle.__drizzle_migrations TO ${role}`);
}

function roleOf(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).username);
}

/**
 * Applies the pending migrations and says which they were. Drizzle's migrator applies every
 * journal entry newer than the newest row of its `drizzle.__drizzle_migrations` table, so the same
 * comparison, made before it runs, names them.
 */
async function migrateWithReport(queryRows: QueryRows, migrate: () => Promise<void>): Promise<MigrationReport> {
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

async function readNewestAppliedMigrationTime(queryRows: QueryRows): Promise<number | undefined> {
  const [table] = (await queryRows("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists"))
    .rows as { exists: boolean }[];
  if (!table?.exists) return undefined;
  const [newest] = (await queryRows("SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations"))
    .rows as { newest: string | null }[];
  return newest?.newest == null ? undefined : Number(newest.newest);
}

function readMigrationJournal(): { tag: string; when: number }[] {
  const journalPath = path.join(migrationsFolder(), "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { tag: string; when: number }[] };
  return journal.entries;
}

function describeUrlWithoutPassword(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = "***";
  return url.toString();
}

function describeProcess(): string {
  const npmScript = process.env.npm_lifecycle_event;
  return npmScript ? `npm run ${npmScript}` : path.basename(process.argv[1] ?? process.argv0);
}

function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
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
