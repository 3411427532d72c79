import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/**
 * What the rest of the app codes against: the base class both drivers' databases extend, typed
 * with our schema. Queries, `db.query.*` and `db.transaction(...)` all work on it; only the raw
 * result of `db.execute(sql)` differs by driver, and app code has no reason to use it.
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseDriver = "pglite" | "postgres";

/** A transaction of that database: what `db.transaction(async (tx) => …)` hands its callback. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * What every function that reads or writes takes as its first argument: the database, or the
 * transaction of the change it belongs to (so the change and its audit event commit together).
 */
export type DbExecutor = Database | Transaction;

export interface MigrationReport {
  /** Tags of the migrations this open applied, oldest first (e.g. "0001_audit-append-only"). */
  applied: string[];
  /** How many migrations the database already had before. */
  alreadyApplied: number;
  durationMs: number;
}

export interface OpenedDatabase {
  db: Database;
  driver: DatabaseDriver;
  /** The PGlite directory, or the PostgreSQL URL without its password: safe to print. */
  location: string;
  migrations: MigrationReport;
  /** Closes the connection(s) and, for PGlite, releases the lock. Safe to call twice. */
  close(): Promise<void>;
}
