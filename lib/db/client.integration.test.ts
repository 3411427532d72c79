import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeScratchProcessDatabase, useScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * getDb()/closeDb(), the process's own database, configured by env() like the app. The settings
 * are set before lib/db/client is first imported (env() reads them once), hence the dynamic import.
 */

let dataDir: string;
let lockPath: string;
let client: typeof import("./client");

beforeAll(async () => {
  delete process.env.DATABASE_URL;
  dataDir = useScratchProcessDatabase("client", {}, { migrated: false });
  lockPath = `${dataDir}.lock`;
  const { env } = await import("@/lib/env");
  // Never let this test open the developer's own database (.data/pglite).
  if (env().PGLITE_DATA_DIR !== dataDir || env().DATABASE_URL) throw new Error("settings were read before this test set them");
  client = await import("./client");
});

afterAll(async () => {
  await client?.closeDb();
  removeScratchProcessDatabase();
});

describe("getDb", () => {
  it("does not open the database at import", () => {
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it(
    "opens the configured PGlite once for all callers, and closeDb releases it",
    async () => {
      const [first, second] = await Promise.all([client.getDb(), client.getDb()]);
      expect(first).toBe(second);
      expect(await client.getDb()).toBe(first);
      expect(JSON.parse(fs.readFileSync(lockPath, "utf8"))).toMatchObject({ pid: process.pid });

      await client.closeDb();
      expect(fs.existsSync(lockPath)).toBe(false);

      const reopened = await client.getDb();
      expect(reopened).not.toBe(first);
      await client.closeDb();
    },
    120_000,
  );

  it(
    "does not keep a failed open: the next call tries again",
    async () => {
      const otherProcess = spawn("sleep", ["30"]);
      const lockOfOtherProcess = {
        pid: otherProcess.pid,
        label: "another app",
        command: "sleep 30",
        hostname: os.hostname(),
        startedAt: new Date().toISOString(),
        token: "other-token",
      };
      fs.writeFileSync(lockPath, JSON.stringify(lockOfOtherProcess));
      try {
        await expect(client.getDb()).rejects.toThrow(/is locked/);
      } finally {
        otherProcess.kill();
        fs.rmSync(lockPath);
      }
      await expect(client.getDb()).resolves.toBeDefined();
      await client.closeDb();
    },
    120_000,
  );
});
