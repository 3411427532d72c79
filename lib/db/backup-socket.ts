import "server-only";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { logger } from "@/lib/logger";

/**
 * How `npm run db:backup` gets a consistent copy of a PGlite directory that a running app owns
 * (ADR 0042). PGlite is one process's alone (pglite-lock.ts), so the owner answers: it listens on a
 * Unix socket in a directory only its OS user can enter (`<dataDir>.control/`, mode 0700) and, for
 * each connection, checkpoints and dumps the data directory with no transaction open, then sends
 * the tarball. Who can connect can read the data directory (and the key file) already, so this adds
 * no way in; nothing listens on the network and the request carries nothing that is acted upon
 * beyond "dump".
 *
 * Wire format: the client sends the line `backup\n`; the server answers one JSON line —
 * `{"ok":true,"bytes":N}` then N bytes of gzip tarball, or `{"ok":false,"error":"…"}` — and closes.
 */

export const BACKUP_REQUEST = "backup\n";

/** The control directory and socket of a data directory (both next to it, outside what PGlite manages). */
export function backupSocketPathFor(dataDir: string): string {
  return path.join(`${path.resolve(dataDir)}.control`, "backup.sock");
}

// A Unix socket path longer than this fails to bind (sun_path is 108 bytes on Linux).
const MAX_SOCKET_PATH = 100;

/**
 * A consistent gzip tarball of the data directory. The CHECKPOINT waits for a transaction under
 * way (PGlite runs one at a time) and writes every committed change into the data files; the dump
 * then copies the files between two statements (PGlite's query lock). Should a transaction begin
 * in between, the copy holds it uncommitted, and PostgreSQL's recovery at the restored start drops
 * it: what a crash at that instant would keep, never half of a commit.
 */
export async function dumpPgliteConsistently(pglite: PGlite): Promise<Blob> {
  await pglite.exec("CHECKPOINT");
  return pglite.dumpDataDir("gzip");
}

/** Starts answering backup requests for `pglite`; the returned function stops it. Never throws. */
export async function serveBackupRequests(pglite: PGlite, dataDir: string): Promise<() => Promise<void>> {
  const socketPath = backupSocketPathFor(dataDir);
  if (socketPath.length > MAX_SOCKET_PATH || process.platform === "win32") {
    logger.warn({ socketPath }, "backups of the running app are off: the control socket path is too long for this system");
    return async () => undefined;
  }
  try {
    const controlDir = path.dirname(socketPath);
    fs.mkdirSync(controlDir, { recursive: true, mode: 0o700 });
    // An existing directory keeps its mode: make sure it is ours alone before a socket goes in.
    fs.chmodSync(controlDir, 0o700);
    // We hold the data directory's lock, so a socket left here is a dead owner's.
    fs.rmSync(socketPath, { force: true });
    const server = net.createServer((connection) => answer(connection, pglite));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => {
        server.off("error", reject);
        resolve();
      });
    });
    fs.chmodSync(socketPath, 0o600);
    server.unref();
    server.on("error", (error) => logger.error({ err: error, socketPath }, "backup control socket failed"));
    return async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(socketPath, { force: true });
    };
  } catch (error) {
    logger.warn({ err: error, socketPath }, "backups of the running app are off: the control socket could not be opened");
    return async () => undefined;
  }
}

function answer(connection: net.Socket, pglite: PGlite): void {
  let received = "";
  let isAnswered = false;
  connection.setTimeout(30_000, () => connection.destroy());
  connection.on("error", () => undefined);
  connection.on("data", (chunk) => {
    received += chunk.toString("utf8");
    if (isAnswered || !received.includes("\n")) {
      if (received.length > 64) connection.destroy();
      return;
    }
    isAnswered = true;
    if (received !== BACKUP_REQUEST) {
      connection.end(`${JSON.stringify({ ok: false, error: "unknown request" })}\n`);
      return;
    }
    const startedAt = Date.now();
    dumpPgliteConsistently(pglite)
      .then(async (blob) => {
        const bytes = Buffer.from(await blob.arrayBuffer());
        connection.write(`${JSON.stringify({ ok: true, bytes: bytes.length })}\n`);
        connection.end(bytes);
        logger.info({ bytes: bytes.length, ms: Date.now() - startedAt }, "database backup handed to npm run db:backup");
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "database backup failed");
        connection.end(`${JSON.stringify({ ok: false, error: error instanceof Error ? error.message : String(error) })}\n`);
      });
  });
}
