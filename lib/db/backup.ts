import "server-only";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { count, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { BACKUP_REQUEST, backupSocketPathFor, dumpPgliteConsistently } from "./backup-socket";
import { openDatabase } from "./client";
import { prepareDataDirectory, restrictDataDirectory } from "./data-dir-mode";
import { openPglite } from "./drivers";
import { acquirePgliteLock } from "./pglite-lock";
import * as schema from "./schema";
import type { Database } from "./types";

/**
 * Backups of the embedded (PGlite) database that a branch can restore (ADR 0042).
 *
 * A backup is one file: a plain tar (`tar tf` lists it) holding `manifest.json` (what it is, when,
 * the schema level, the counts and the audit head it was checked at) and `pgdata.tar.gz` (PGlite's
 * own dump of the data directory). The encryption keys are NOT in it: they live in the key file or
 * the environment (ADR 0006), and a backup that carried them would hand whoever holds it the
 * customers' data. Without them the restored customer fields cannot be read.
 *
 * Taking one: from the running app through its control socket (backup-socket.ts), else by opening
 * the directory (refused while another process owns it). Either way the dump is then opened in
 * memory here, counted and its audit chain verified before the file is written, so a backup that
 * could not be restored is never written. Restoring: into an absent or empty directory only; the
 * restored directory is then opened like the app opens it, its chain verified and its counts
 * compared with the manifest's.
 */

export const BACKUP_FORMAT = "veridesk-backup";
export const BACKUP_FORMAT_VERSION = 1;

/**
 * The audit chain's verifier (lib/audit/chain.ts `verifyAuditChain`), passed in: the database layer
 * sits below the audit trail and imports nothing of it.
 */
export type VerifyChain = (db: Database) => Promise<{
  eventCount: number;
  headHash: string;
  headSeq: string | null;
  firstBreak: { id: string; message: string } | null;
}>;

export interface BackupCounts {
  staff: number;
  tokens: number;
  auditEvents: number;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  driver: "pglite";
  createdAt: string;
  /** How the dump was taken: from the running app (its socket) or by opening the directory. */
  takenFrom: "running app" | "data directory";
  /** Migrations applied in the backed-up database, and the newest one's time (drizzle's journal `when`). */
  schema: { migrations: number; newestMigrationAt: string | null };
  counts: BackupCounts;
  auditHead: { chainSeq: string | null; hash: string };
  /** Always false: said in the file too, so nobody assumes otherwise. */
  containsEncryptionKeys: false;
}

export interface Backup {
  manifest: BackupManifest;
  dump: Buffer;
}

// ─── Taking a backup ────────────────────────────────────────────────────────────────────────────

/** A checked backup of the PGlite directory `dataDir`, running app or not. */
export async function takePgliteBackup(dataDir: string, verifyChain: VerifyChain): Promise<Backup> {
  const fromApp = await requestDumpFromRunningApp(dataDir);
  const dump = fromApp ?? (await dumpClosedDirectory(dataDir));
  const inspected = await inspectDump(dump, verifyChain);
  if (inspected.brokenAt) {
    throw new AppError("CONFIGURATION", `The audit chain in this database is broken (${inspected.brokenAt}); no backup written. Run npm run audit:verify.`);
  }
  return {
    dump,
    manifest: {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      driver: "pglite",
      createdAt: new Date().toISOString(),
      takenFrom: fromApp ? "running app" : "data directory",
      schema: inspected.schema,
      counts: inspected.counts,
      auditHead: inspected.auditHead,
      containsEncryptionKeys: false,
    },
  };
}

/** The running app's dump through its control socket; undefined when no app answers there. */
export async function requestDumpFromRunningApp(dataDir: string): Promise<Buffer | undefined> {
  const socketPath = backupSocketPathFor(dataDir);
  if (!fs.existsSync(socketPath)) return undefined;
  let connection: net.Socket;
  try {
    connection = await new Promise<net.Socket>((resolve, reject) => {
      const socket = net.createConnection(socketPath, () => resolve(socket));
      socket.once("error", reject);
    });
  } catch {
    // A socket file nobody listens on: its owner is gone (the lock decides who may open the directory).
    return undefined;
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    connection.on("data", (chunk: Buffer) => chunks.push(chunk));
    connection.on("error", reject);
    connection.on("end", () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(0x0a);
      if (newline < 0) return reject(new AppError("CONFIGURATION", "The running app closed the backup connection without an answer."));
      const header = JSON.parse(all.subarray(0, newline).toString("utf8")) as { ok: boolean; bytes?: number; error?: string };
      if (!header.ok) return reject(new AppError("CONFIGURATION", `The running app could not make the backup: ${header.error}`));
      const body = all.subarray(newline + 1);
      if (body.length !== header.bytes) {
        return reject(new AppError("CONFIGURATION", `The running app's backup arrived cut short (${body.length} of ${header.bytes} bytes).`));
      }
      resolve(body);
    });
    connection.write(BACKUP_REQUEST);
  });
}

async function dumpClosedDirectory(dataDir: string): Promise<Buffer> {
  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    throw new AppError("CONFIGURATION", `No PGlite database in ${path.resolve(dataDir)} (PGLITE_DATA_DIR).`);
  }
  const opened = await openPglite(dataDir, "npm run db:backup");
  try {
    return Buffer.from(await (await dumpPgliteConsistently(opened.client)).arrayBuffer());
  } finally {
    await opened.close();
  }
}

interface InspectedDump {
  schema: BackupManifest["schema"];
  counts: BackupCounts;
  auditHead: BackupManifest["auditHead"];
  brokenAt?: string;
}

/** Opens a dump in memory (touching no directory) and reads what the manifest says of it. */
export async function inspectDump(dump: Buffer, verifyChain: VerifyChain): Promise<InspectedDump> {
  const [{ PGlite }, { drizzle }] = await Promise.all([import("@electric-sql/pglite"), import("drizzle-orm/pglite")]);
  const pglite = await PGlite.create({ loadDataDir: new Blob([new Uint8Array(dump)]) });
  try {
    const db = drizzle({ client: pglite, schema }) as unknown as Database;
    const report = await verifyChain(db);
    return {
      schema: await readSchemaLevel(db),
      counts: await countRows(db),
      auditHead: { chainSeq: report.headSeq, hash: report.headHash },
      brokenAt: report.firstBreak ? `event ${report.firstBreak.id}: ${report.firstBreak.message}` : undefined,
    };
  } finally {
    await pglite.close();
  }
}

/** The rows a restore must bring back, counted the same way on either driver. */
export async function countRows(db: Database): Promise<BackupCounts> {
  const [[staff], [tokens], [auditEvents]] = await Promise.all([
    db.select({ n: count() }).from(schema.staffProfiles),
    db.select({ n: count() }).from(schema.tokenRequests),
    db.select({ n: count() }).from(schema.auditEvents),
  ]);
  return { staff: staff?.n ?? 0, tokens: tokens?.n ?? 0, auditEvents: auditEvents?.n ?? 0 };
}

async function readSchemaLevel(db: Database): Promise<BackupManifest["schema"]> {
  const result = (await db.execute(
    sql`SELECT count(*)::int AS migrations, max(created_at)::text AS newest FROM drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { migrations: number; newest: string | null }[] };
  const [row] = result.rows;
  return { migrations: row?.migrations ?? 0, newestMigrationAt: row?.newest ?? null };
}

// ─── The file ───────────────────────────────────────────────────────────────────────────────────

const MANIFEST_NAME = "manifest.json";
const DUMP_NAME = "pgdata.tar.gz";

/** Writes the backup file (mode 0600: it holds the staff's password hashes and the encrypted data). */
export function writeBackupFile(outPath: string, backup: Backup): void {
  const manifest = Buffer.from(`${JSON.stringify(backup.manifest, null, 2)}\n`, "utf8");
  const file = Buffer.concat([tarEntry(MANIFEST_NAME, manifest), tarEntry(DUMP_NAME, backup.dump), Buffer.alloc(1024)]);
  fs.mkdirSync(path.dirname(path.resolve(outPath)), { recursive: true });
  // Written aside, then renamed: a backup file is whole or absent, never half written.
  const draft = `${outPath}.${process.pid}.part`;
  fs.writeFileSync(draft, file, { mode: 0o600 });
  fs.renameSync(draft, outPath);
}

export function readBackupFile(inPath: string): Backup {
  const entries = readTar(fs.readFileSync(inPath));
  const manifestBytes = entries.get(MANIFEST_NAME);
  const dump = entries.get(DUMP_NAME);
  if (!manifestBytes || !dump) throw new AppError("CONFIGURATION", `${inPath} is not a Veridesk backup (no ${MANIFEST_NAME} and ${DUMP_NAME} in it).`);
  const manifest = JSON.parse(manifestBytes.toString("utf8")) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new AppError("CONFIGURATION", `${inPath} is a backup of an unknown format (${manifest.format} ${manifest.formatVersion}).`);
  }
  return { manifest, dump };
}

// A plain ustar archive of regular files: enough for two entries, readable by any `tar`.
function tarEntry(name: string, body: Buffer): Buffer {
  const header = Buffer.alloc(512);
  const put = (value: string, offset: number, length: number) => header.write(value, offset, length, "utf8");
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, "0");
  put(name, 0, 100);
  put(octal(0o600, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(body.length, 12), 124, 12);
  put(octal(Math.floor(Date.now() / 1000), 12), 136, 12);
  put("        ", 148, 8);
  put("0", 156, 1);
  put("ustar\u000000", 257, 8);
  let sum = 0;
  for (const byte of header) sum += byte;
  put(`${octal(sum, 7)}\u0000 `, 148, 8);
  const padding = Buffer.alloc((512 - (body.length % 512)) % 512);
  return Buffer.concat([header, body, padding]);
}

function readTar(archive: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const name = header.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    const size = Number.parseInt(header.subarray(124, 136).toString("utf8").replace(/\0.*$/s, "").trim() || "0", 8);
    offset += 512;
    entries.set(name, archive.subarray(offset, offset + size));
    offset += size + ((512 - (size % 512)) % 512);
  }
  return entries;
}

// ─── Restoring ──────────────────────────────────────────────────────────────────────────────────

export interface RestoreReport {
  location: string;
  counts: BackupCounts;
  expected: BackupCounts;
  eventsChecked: number;
  auditHead: { chainSeq: string | null; hash: string };
  /** Migrations the newer code applied on top of the backup's schema. */
  migrationsApplied: string[];
}

/**
 * Restores `backup` into `targetDir`, which must be absent or empty (an existing database is never
 * overwritten), then opens it as the app would, verifies its audit chain and compares its counts
 * with the manifest's. Throws (the directory left as restored, for inspection) when they differ.
 */
export async function restorePgliteBackup(backup: Backup, targetDir: string, verifyChain: VerifyChain): Promise<RestoreReport> {
  const location = path.resolve(targetDir);
  refuseNonEmpty(location);
  // The lock first: a running app on this directory, or a second restore, is refused by name.
  const lock = await acquirePgliteLock(location, "npm run db:restore");
  try {
    refuseNonEmpty(location);
    const { PGlite } = await import("@electric-sql/pglite");
    // The archive's files come out at its own modes (0666 for PGlite's): the owner's alone before anything opens them.
    prepareDataDirectory(location);
    const pglite = await PGlite.create({ dataDir: location, loadDataDir: new Blob([new Uint8Array(backup.dump)]) });
    await pglite.close();
    restrictDataDirectory(location);
  } finally {
    lock.release();
  }
  const opened = await openDatabase({ pgliteDataDir: location, label: "npm run db:restore" });
  try {
    return await checkRestored(opened.db, verifyChain, backup.manifest.counts, location, opened.migrations.applied);
  } finally {
    await opened.close();
  }
}

/** Verifies the chain and compares the counts of a restored database (either driver). */
export async function checkRestored(db: Database, verifyChain: VerifyChain, expected: BackupCounts, location: string, migrationsApplied: string[] = []): Promise<RestoreReport> {
  const chain = await verifyChain(db);
  if (chain.firstBreak) {
    throw new AppError("CONFIGURATION", `The restored audit chain is broken at event ${chain.firstBreak.id}: ${chain.firstBreak.message}`);
  }
  const counts = await countRows(db);
  const differing = (Object.keys(expected) as (keyof BackupCounts)[]).filter((key) => counts[key] !== expected[key]);
  if (differing.length > 0) {
    const detail = differing.map((key) => `${key}: ${counts[key]} restored, ${expected[key]} in the backup`).join("; ");
    throw new AppError("CONFIGURATION", `The restored database does not match its backup (${detail}).`);
  }
  return {
    location,
    counts,
    expected,
    eventsChecked: chain.eventCount,
    auditHead: { chainSeq: chain.headSeq, hash: chain.headHash },
    migrationsApplied,
  };
}

function refuseNonEmpty(location: string): void {
  if (!fs.existsSync(location)) return;
  if (!fs.statSync(location).isDirectory()) throw new AppError("CONFIGURATION", `${location} is a file, not a data directory.`);
  if (fs.readdirSync(location).length > 0) {
    throw new AppError(
      "CONFIGURATION",
      `${location} is not empty: a restore never overwrites a database. Restore into a new directory (and point PGLITE_DATA_DIR at it), or move this one aside first.`,
    );
  }
}
