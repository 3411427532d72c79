import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { copyMigratedPgliteTemplate } from "./pglite-template";

/**
 * For tests of code that opens the process's own database (better-auth, getCurrentStaff, the
 * services that call getDb): points PGLITE_DATA_DIR at a fresh directory (a copy of the run's migrated
 * template, pglite-template.ts) and sets the test
 * environment before any app module reads the settings — lib/logger reads them at import, so call
 * it inside `vi.hoisted` and import the app modules dynamically after it:
 *
 *   await vi.hoisted(async () => {
 *     const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
 *     useScratchProcessDatabase("auth-flow", { SESSION_IDLE_MINUTES: "30" });
 *   });
 *   const { getDb, closeDb } = await import("@/lib/db/client");
 *   afterAll(async () => { await closeDb(); removeScratchProcessDatabase(); });
 *
 * This module imports no app code, so importing it sets nothing in motion.
 */
export function useScratchProcessDatabase(name: string, env: Record<string, string> = {}, options: { migrated?: boolean } = {}): string {
  const dataDir = path.join(os.tmpdir(), `veridesk-${name}-${process.pid}-${Date.now()}`);
  // A copy of the run's migrated template (pglite-template.ts), unless the test is about what the
  // first open of a new directory does (`migrated: false`).
  if (options.migrated ?? true) copyMigratedPgliteTemplate(dataDir);
  process.env.PGLITE_DATA_DIR = dataDir;
  process.env.APP_ENV = "test";
  process.env.LOG_LEVEL = "silent";
  Object.assign(process.env, env);
  return dataDir;
}

/** Removes the directory `useScratchProcessDatabase` made (and PGlite's lock file beside it); call after closeDb(). */
export function removeScratchProcessDatabase(): void {
  const dataDir = process.env.PGLITE_DATA_DIR;
  if (!dataDir) return;
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(`${dataDir}.lock`, { force: true });
}
