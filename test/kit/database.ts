import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import pg from "pg";
import { describe, expect } from "vitest";
import { openDatabase } from "@/lib/db/client";
import type { OpenedDatabase } from "@/lib/db/types";
import { keyIdOf, type PiiKeys } from "@/lib/pii";
import { scratchDirectory } from "./directories";
import { copyMigratedPgliteTemplate } from "./pglite-template";

export { scratchDirectory, withScratchDirectory } from "./directories";

/**
 * Throw-away databases for integration tests and the benchmarks: a PGlite directory under the OS
 * temp dir, or a fresh database beside a PostgreSQL URL. Never the developer's own.
 */

export type ScratchDriver = "pglite" | "postgres";

export type ScratchDatabase = {
  opened: OpenedDatabase;
  /** Shorthand for `opened.db`. */
  db: OpenedDatabase["db"];
  driver: ScratchDriver;
  /** "PGlite" or "PostgreSQL", for test titles and benchmark reports. */
  label: string;
  /** How another process (an app server started by a benchmark) reaches the same database. */
  connection: { pgliteDataDir: string } | { databaseUrl: string };
  /**
   * Runs SQL as the tables' owner (the DBA), not the app's role: on PostgreSQL a connection of its
   * own as TEST_DATABASE_URL's user, on PGlite (one user, the owner) the test's own connection.
   */
  asOwner(statements: string[]): Promise<void>;
  /**
   * PostgreSQL: a second connection pool on the same database, as a second instance of the app
   * would have; the caller closes it. PGlite refuses (one process opens a directory once).
   */
  openAgain(label?: string): Promise<OpenedDatabase>;
  destroy(): Promise<void>;
};

/** The labels `forEachDatabase` gives its blocks. */
export const DRIVER_LABELS: Record<ScratchDriver, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

/**
 * Opens (and migrates) a scratch database. `name` tells the temp directory or database apart in a
 * listing; PostgreSQL needs TEST_DATABASE_URL (or `baseUrl`).
 */
export async function openScratchDatabase(options: { driver: ScratchDriver; name: string; baseUrl?: string }): Promise<ScratchDatabase> {
  if (options.driver === "pglite") return createScratchPglite(`veridesk-${options.name}-`);
  return createScratchPostgres(postgresBaseUrl(options.baseUrl), `veridesk_${options.name.replace(/[^a-z0-9_]/gi, "_")}`);
}

function postgresBaseUrl(baseUrl: string | undefined): string {
  const url = baseUrl ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("the postgres scratch driver needs TEST_DATABASE_URL");
  return url;
}

/**
 * A scratch database nobody has opened yet, for tests of what opening does (migrations, a second
 * start, a backfill at start): `open()` opens and migrates it like a process starting, as often as
 * the test likes; the test closes what it opened, then calls `destroy()`.
 */
export type UnopenedScratchDatabase = {
  driver: ScratchDriver;
  label: string;
  connection: ScratchDatabase["connection"];
  open(label?: string): Promise<OpenedDatabase>;
  destroy(): Promise<void>;
};

export async function makeScratchDatabase(options: { driver: ScratchDriver; name: string; baseUrl?: string }): Promise<UnopenedScratchDatabase> {
  if (options.driver === "pglite") {
    const tempDir = scratchDirectory(options.name);
    const pgliteDataDir = path.join(tempDir, "pglite");
    return {
      driver: "pglite",
      label: DRIVER_LABELS.pglite,
      connection: { pgliteDataDir },
      open: (label = "scratch database") => openDatabase({ pgliteDataDir, label }),
      destroy: async () => fs.rmSync(tempDir, { recursive: true, force: true }),
    };
  }
  const baseUrl = postgresBaseUrl(options.baseUrl);
  const name = `veridesk_${options.name.replace(/[^a-z0-9_]/gi, "_")}_${process.pid}_${Date.now()}`;
  await runAsOwner(baseUrl, [`CREATE DATABASE "${name}"`]);
  const settings = scratchPostgresSettings(baseUrl, name);
  return {
    driver: "postgres",
    label: DRIVER_LABELS.postgres,
    connection: { databaseUrl: settings.databaseUrl },
    open: (label = "scratch database") => openDatabase({ ...settings, pgliteDataDir: "unused", label }),
    destroy: () => dropScratchDatabase(baseUrl, name),
  };
}

/** The data directory of a PGlite scratch database, for a test that opens it from another process. */
export function pgliteDataDirOf(scratch: { connection: ScratchDatabase["connection"] }): string {
  if (!("pgliteDataDir" in scratch.connection)) throw new Error("pgliteDataDirOf: not a PGlite scratch database");
  return scratch.connection.pgliteDataDir;
}

/** The drivers a test file runs against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function scratchDrivers(): ScratchDriver[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

/**
 * Defines the same block once per driver (see `scratchDrivers`), each inside a describe named after
 * the driver. `define` gets the driver and its label; it opens its own database (usually with
 * `openScratchDatabase({ driver, name })` in a beforeAll).
 */
export function forEachDatabase(name: string, define: (driver: ScratchDriver, label: string) => void): void {
  for (const driver of scratchDrivers()) {
    describe(`${name} (${DRIVER_LABELS[driver]})`, () => define(driver, DRIVER_LABELS[driver]));
  }
}

export async function createScratchPglite(prefix = "veridesk-review-"): Promise<ScratchDatabase> {
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const pgliteDataDir = path.join(tempDir, "pglite");
  // Migrated already when the integration run made its template; opening then applies nothing.
  copyMigratedPgliteTemplate(pgliteDataDir);
  const opened = await openDatabase({ pgliteDataDir, label: "scratch database" });
  return {
    opened,
    db: opened.db,
    driver: "pglite",
    label: DRIVER_LABELS.pglite,
    connection: { pgliteDataDir },
    // PGlite has one user, the owner: the test's own connection is the DBA.
    asOwner: async (statements) => {
      for (const statement of statements) await opened.db.execute(sql.raw(statement));
    },
    openAgain: () => Promise.reject(new Error("openAgain: a PGlite directory is opened once per process; share `opened` instead")),
    destroy: async () => {
      await opened.close();
      fs.rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

export async function createScratchPostgres(baseUrl: string, prefix = "veridesk_review"): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  await runAsOwner(baseUrl, [`CREATE DATABASE "${name}"`]);
  const opened = await openDatabase({ ...scratchPostgresSettings(baseUrl, name), pgliteDataDir: "unused", label: "scratch database" });
  return {
    opened,
    db: opened.db,
    driver: "postgres",
    label: DRIVER_LABELS.postgres,
    connection: { databaseUrl: scratchPostgresSettings(baseUrl, name).databaseUrl },
    asOwner: (statements) => runAsOwner(withDatabase(baseUrl, name), statements),
    openAgain: (label = "scratch database, second pool") => openDatabase({ ...scratchPostgresSettings(baseUrl, name), pgliteDataDir: "unused", label }),
    destroy: async () => {
      await opened.close();
      await dropScratchDatabase(baseUrl, name);
    },
  };
}

/** Sends `statements` (as one query: one implicit transaction) on a connection of its own to `url`. */
async function runAsOwner(url: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statements.join(";\n"));
  } finally {
    await client.end();
  }
}

/** A fresh key pair, as a local run would generate it. */
export function scratchPiiKeys(): PiiKeys {
  const encryptionKey = randomBytes(32);
  return { encryptionKey, indexKey: randomBytes(32), encryptionKeyId: keyIdOf(encryptionKey) };
}

/**
 * The messages of a database's refusal, whichever driver: Drizzle wraps the database's error as the
 * cause of a "Failed query" error, so every message down the chain, one a line. Fails the test if
 * the statement succeeds.
 */
export async function refusalMessages(action: Promise<unknown>): Promise<string> {
  const error: unknown = await action.then(
    () => expect.fail("expected the database to refuse"),
    (rejection: unknown) => rejection,
  );
  const messages: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause) messages.push(current.message);
  return messages.join("\n");
}

/** Rows of a raw query; both drivers answer `{ rows }` (the base Database type does not say so). */
export async function queryRows<Row>(db: { execute: (query: SQL) => Promise<unknown> }, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as { rows: Row[] }).rows;
}

/**
 * How integration tests reach a scratch PostgreSQL database the way production does (ADR 0019):
 * migrations as the owner role (TEST_DATABASE_URL, which also makes the scratch databases), the
 * queries under test as the app role (TEST_APP_DATABASE_URL, made by scripts/ci-postgres.sh).
 * Without TEST_APP_DATABASE_URL everything runs as the owner, as before.
 */
export function scratchPostgresSettings(ownerBaseUrl: string, databaseName: string): { databaseUrl: string; migrationDatabaseUrl?: string } {
  const ownerUrl = withDatabase(ownerBaseUrl, databaseName);
  const appBaseUrl = process.env.TEST_APP_DATABASE_URL;
  if (!appBaseUrl) return { databaseUrl: ownerUrl };
  return { databaseUrl: withDatabase(appBaseUrl, databaseName), migrationDatabaseUrl: ownerUrl };
}

export function withDatabase(url: string, databaseName: string): string {
  const next = new URL(url);
  next.pathname = `/${databaseName}`;
  return next.toString();
}

/**
 * Drops a scratch database once its last connection has gone. The backends of a pool just closed
 * take a moment to exit, so: wait (up to 10 s) until nobody is connected, then drop with FORCE,
 * which ends whatever is still connected. Ending the app role's backends needs the owner role to
 * be a member of pg_signal_backend (scripts/ci-postgres.sh grants it); without it PostgreSQL
 * refuses ("must be a member of the role whose process is being terminated"), and the error then
 * names the connections left and the grant that is missing.
 */
export async function dropScratchDatabase(ownerBaseUrl: string, databaseName: string): Promise<void> {
  const client = new pg.Client({ connectionString: ownerBaseUrl });
  await client.connect();
  try {
    const connected = async () =>
      (
        await client.query<{ usename: string; application_name: string }>(
          "SELECT usename, application_name FROM pg_stat_activity WHERE datname = $1",
          [databaseName],
        )
      ).rows;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await connected()).length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      await client.query(`DROP DATABASE IF EXISTS "${databaseName.replace(/"/g, '""')}" WITH (FORCE)`);
    } catch (error) {
      if ((error as { code?: string }).code !== "42501") throw error;
      const left = (await connected()).map((row) => `${row.usename}${row.application_name ? ` (${row.application_name})` : ""}`);
      throw new Error(
        `could not drop scratch database ${databaseName}: connections still open after 10 s: ${left.join(", ") || "none now"}; ` +
          "the owner role needs pg_signal_backend to end them (run scripts/ci-postgres.sh, or GRANT pg_signal_backend TO <owner>)",
        { cause: error },
      );
    }
  } finally {
    await client.end();
  }
}
