import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "@/lib/db/client";
import type { OpenedDatabase } from "@/lib/db/types";
import { dropScratchDatabase, scratchPostgresSettings } from "./postgres";
import { keyIdOf, type PiiKeys } from "@/lib/pii";

/**
 * A throw-away database for the review integration tests and the benchmark: a PGlite directory
 * under the OS temp dir, or a fresh database beside a PostgreSQL URL. Never the developer's own.
 */
export type ScratchDatabase = {
  opened: OpenedDatabase;
  label: string;
  /** How another process (an app server started by a benchmark) reaches the same database. */
  connection: { pgliteDataDir: string } | { databaseUrl: string };
  destroy(): Promise<void>;
};

export async function createScratchPglite(prefix = "veridesk-review-"): Promise<ScratchDatabase> {
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const pgliteDataDir = path.join(tempDir, "pglite");
  const opened = await openDatabase({ pgliteDataDir, label: "review scratch database" });
  return {
    opened,
    label: "PGlite",
    connection: { pgliteDataDir },
    destroy: async () => {
      await opened.close();
      fs.rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

export async function createScratchPostgres(baseUrl: string, prefix = "veridesk_review"): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const opened = await openDatabase({ ...scratchPostgresSettings(baseUrl, name), pgliteDataDir: "unused", label: "review scratch database" });
  return {
    opened,
    label: "PostgreSQL",
    connection: { databaseUrl: scratchPostgresSettings(baseUrl, name).databaseUrl },
    destroy: async () => {
      await opened.close();
      await dropScratchDatabase(baseUrl, name);
    },
  };
}

/** A fresh key pair, as a local run would generate it. */
export function scratchPiiKeys(): PiiKeys {
  const encryptionKey = randomBytes(32);
  return { encryptionKey, indexKey: randomBytes(32), encryptionKeyId: keyIdOf(encryptionKey) };
}

/** Rows of a raw query; both drivers answer `{ rows }` (the base Database type does not say so). */
export async function queryRows<Row>(db: { execute: (query: SQL) => Promise<unknown> }, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as { rows: Row[] }).rows;
}
