import "server-only";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { logger } from "@/lib/logger";
import { serveBackupRequests } from "./backup-socket";
import { prepareDataDirectory, refuseOpenDataDirectory, restrictDataDirectory } from "./data-dir-mode";
import { acquirePgliteLock } from "./pglite-lock";
import { runPgliteReadsAsNamedStatements } from "./prepared";
import * as schema from "./schema";
import type { Database } from "./types";

/**
 * The two drivers, opened without migrating (migrate.ts does that). Each is imported only when
 * chosen, so a PostgreSQL deployment never loads PGlite's WebAssembly.
 */

export type PgliteConnection = {
  db: Database;
  /** PGlite's own client, for the migration report's raw queries. */
  client: PGlite;
  location: string;
  /** Closes PGlite and releases the lock. Safe to call twice. */
  close(): Promise<void>;
};

/**
 * The embedded PGlite in `dataDir`, owned by this process alone (see pglite-lock.ts), and by the
 * app's OS user alone: a directory others may enter is refused, and what PGlite writes is kept
 * at 0700/0600 (data-dir-mode.ts).
 */
export async function openPglite(dataDir: string, label: string): Promise<PgliteConnection> {
  const location = path.resolve(dataDir);
  refuseOpenDataDirectory(location);
  // The lock comes first: a refused process must not even start PGlite on the directory.
  const lock = await acquirePgliteLock(location, label);
  if (lock.tookOverFrom) {
    logger.warn({ lockPath: lock.lockPath, previousHolder: lock.tookOverFrom }, "took over a stale PGlite lock");
  }
  let client: PGlite | undefined;
  try {
    const [{ PGlite }, { drizzle }] = await Promise.all([import("@electric-sql/pglite"), import("drizzle-orm/pglite")]);
    prepareDataDirectory(location);
    const pglite = await PGlite.create(location);
    client = pglite;
    // PGlite unpacks a new cluster at 0666 and rewrites its relcache files at 0644: brought back to the owner's alone.
    restrictDataDirectory(location);
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
    // The owner alone can copy the directory while it runs: it answers `npm run db:backup` (ADR 0042).
    const stopServingBackups = await serveBackupRequests(pglite, location);
    return {
      db,
      client: pglite,
      location,
      close: once(async () => {
        try {
          await stopServingBackups();
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

/** A node-postgres pool on `databaseUrl`; `location` is the URL without its password. */
export async function openPostgres(databaseUrl: string): Promise<{ db: Database; location: string; close(): Promise<void> }> {
  const [{ Pool }, { drizzle }] = await Promise.all([import("pg"), import("drizzle-orm/node-postgres")]);
  const pool = new Pool({ connectionString: databaseUrl });
  // An idle connection dropped by the server emits "error" on the pool; unhandled, it kills the process.
  pool.on("error", (error) => logger.error({ err: error }, "idle PostgreSQL connection failed"));
  return {
    db: drizzle({ client: pool, schema }),
    location: describeUrlWithoutPassword(databaseUrl),
    close: once(() => pool.end()),
  };
}

export function describeUrlWithoutPassword(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = "***";
  return url.toString();
}

/** `close` run at most once, however often it is called. */
export function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}
