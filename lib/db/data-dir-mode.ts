import "server-only";
import fs from "node:fs";
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import { AppError } from "@/lib/errors";

/**
 * The embedded database's directory belongs to the app's OS user alone: it holds the staff's
 * password hashes (in the tables and in the WAL) and the encrypted customer data. PGlite does not
 * see to it: its NodeFS writes the files of a new database at 0666 whatever the umask (the initial
 * cluster is unpacked with the archive's modes and chmod-ed), and files it creates later get
 * `0666 & ~umask`. So:
 *  - an existing directory that lets anyone but the owner write, or anyone outside the group in at
 *    all, is refused before PGlite opens it — PostgreSQL's own rule for its data directory (0700,
 *    or 0750 for a group that backs it up), so nothing is read or written through a wrong mode;
 *  - the process's umask gains 077 before PGlite starts, so every file it makes from then on is
 *    0600 (and the control socket's, the backups' and the key file's writers ask for 0600 anyway);
 *  - once PGlite is open, what it unpacked or left behind is brought to 0700 and 0600.
 */

const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;
/** Group write, and anything at all for others: what PostgreSQL refuses on its data directory. */
const REFUSED_BITS = 0o027;

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Throws CONFIGURATION, in one sentence with the fix, when `location` exists with a mode that lets others in. */
export function refuseOpenDataDirectory(location: string): void {
  let mode: number;
  try {
    mode = fs.statSync(location).mode;
  } catch {
    return;
  }
  if ((mode & REFUSED_BITS) === 0) return;
  throw new AppError(
    "CONFIGURATION",
    `Refusing to open the embedded database at ${location}: its mode ${octal(mode)} lets other users read or change it (the staff's password hashes included), so run \`chmod -R go-rwx ${location}\` and start again.`,
  );
}

/** Makes the directory if it is missing (0700), and from now on everything this process creates is its owner's alone. */
export function prepareDataDirectory(location: string): void {
  fs.mkdirSync(location, { recursive: true, mode: DIRECTORY_MODE });
  // A worker thread may not set the umask (Node throws there): restrictDataDirectory still runs.
  if (isMainThread) process.umask(process.umask() | 0o077);
}

/** Brings the whole tree to 0700 (directories) and 0600 (files); symbolic links are left as they are. */
export function restrictDataDirectory(location: string): void {
  fs.chmodSync(location, DIRECTORY_MODE);
  for (const entry of fs.readdirSync(location, { withFileTypes: true, recursive: true })) {
    const entryPath = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) fs.chmodSync(entryPath, DIRECTORY_MODE);
    else if (entry.isFile()) fs.chmodSync(entryPath, FILE_MODE);
  }
}

/** The modes found in the tree that are not 0700/0600 (path → mode), for tests and `db:restore`'s report. */
export function looseModesIn(location: string): Map<string, string> {
  const loose = new Map<string, string>();
  const check = (entryPath: string, isDirectory: boolean) => {
    const mode = fs.statSync(entryPath).mode & 0o777;
    if (mode !== (isDirectory ? DIRECTORY_MODE : FILE_MODE)) loose.set(entryPath, octal(mode));
  };
  check(location, true);
  for (const entry of fs.readdirSync(location, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory() || entry.isFile()) check(path.join(entry.parentPath, entry.name), entry.isDirectory());
  }
  return loose;
}
