import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import path from "node:path";
import type { PiiKeys } from "@/lib/pii";

/**
 * Runs an operator's command (`scripts/<name>.ts`, as its npm script does) on an embedded
 * database's directory, as on a server before the app starts: a test run's settings, and no
 * database URL from the test's own environment, so it opens the directory it is given.
 */
export function runOperatorScript(script: string, args: string[], options: { pgliteDataDir: string; keys: PiiKeys }): SpawnSyncReturns<string> {
  const { DATABASE_URL: _app, MIGRATION_DATABASE_URL: _owner, ...environment } = process.env;
  return spawnSync(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "--conditions=react-server", script, ...args], {
    env: {
      ...environment,
      PGLITE_DATA_DIR: options.pgliteDataDir,
      APP_ENV: "test",
      PII_ENCRYPTION_KEY: options.keys.encryptionKey.toString("hex"),
      PII_INDEX_KEY: options.keys.indexKey.toString("hex"),
    },
    encoding: "utf8",
  });
}
