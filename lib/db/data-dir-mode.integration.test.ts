import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { scratchDirectoriesPerTest } from "@/test/kit/directories";
import { looseModesIn } from "./data-dir-mode";
import { openPglite } from "./drivers";

/**
 * The embedded database is its OS user's alone (lib/db/data-dir-mode.ts): PGlite on its own left
 * 968 files at 0666 in a 0755 directory, the WAL with the staff's password hashes included.
 */

const SLOW = 60_000;
const newDirectory = scratchDirectoriesPerTest("data-dir-mode");
const modeOf = (location: string) => fs.statSync(location).mode & 0o777;

/** PGlite rewrites its relcache init files (no table data in them) at 0644 while it runs; everything else must be 0600. */
const relcacheInitFile = /pg_internal\.init$/;

async function openWriteClose(location: string) {
  const opened = await openPglite(location, "data directory mode test");
  try {
    await opened.db.execute(sql`create table if not exists written (a int)`);
    await opened.db.execute(sql`insert into written select generate_series(1, 20000)`);
    await opened.db.execute(sql`checkpoint`);
  } finally {
    await opened.close();
  }
}

describe("the embedded database directory", () => {
  it("is made 0700 with every file 0600, and files PGlite writes later are 0600 too", async () => {
    const location = path.join(newDirectory(), "pglite");
    await openWriteClose(location);
    expect(modeOf(location)).toBe(0o700);
    const loose = [...looseModesIn(location)].filter(([file]) => !relcacheInitFile.test(file));
    expect(loose).toEqual([]);
    for (const [file, mode] of looseModesIn(location)) expect(`${file} ${mode}`).toMatch(/ 06[04]0$/);
    // Opened again: still the owner's alone, the WAL included.
    await openWriteClose(location);
    expect([...looseModesIn(location)].filter(([file]) => !relcacheInitFile.test(file))).toEqual([]);
    const wal = fs.readdirSync(path.join(location, "pg_wal")).filter((name) => /^[0-9A-F]{24}$/.test(name));
    expect(wal.length).toBeGreaterThan(0);
    for (const segment of wal) expect(modeOf(path.join(location, "pg_wal", segment))).toBe(0o600);
  }, SLOW);

  it.each([
    ["0755", 0o755],
    ["0777", 0o777],
  ])("refuses to open a directory at %s with one sentence that says how to fix it, before PGlite touches it", async (_label, mode) => {
    const location = path.join(newDirectory(), "pglite");
    await openWriteClose(location);
    fs.chmodSync(location, mode);
    const before = fs.readdirSync(location, { recursive: true }).length;
    const refusal = await openPglite(location, "data directory mode test").then(
      async (opened) => {
        await opened.close();
        return null;
      },
      (error: Error) => error.message,
    );
    expect(refusal).toMatch(new RegExp(`^Refusing to open the embedded database at ${location}: its mode 0${mode.toString(8)} lets other users read or change it .*chmod -R go-rwx ${location}\` and start again\\.$`));
    expect(refusal!.split(/\.\s/)).toHaveLength(1);
    expect(fs.readdirSync(location, { recursive: true }).length).toBe(before);
    expect(modeOf(location)).toBe(mode);
    // The fix the sentence gives is enough.
    fs.chmodSync(location, 0o700);
    await openWriteClose(location);
  }, SLOW);

  it("opens a directory a backup group may read (0750, as PostgreSQL allows) and tightens it", async () => {
    const location = path.join(newDirectory(), "pglite");
    await openWriteClose(location);
    fs.chmodSync(location, 0o750);
    await openWriteClose(location);
    expect(modeOf(location)).toBe(0o700);
  }, SLOW);
});
