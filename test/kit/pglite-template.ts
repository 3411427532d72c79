import fs from "node:fs";

/**
 * A migrated, empty PGlite directory made once per integration run (test/kit/integration-setup.ts)
 * and copied for each scratch database. Creating a PGlite directory (initdb) and running every
 * migration in it costs about 5 CPU-seconds; copying the result costs a tenth of one, and the
 * integration suite makes a few dozen of them. Tests of what opening a new database does (the
 * migrations, the lock, the first open) use makeScratchDatabase, which still starts empty.
 *
 * This module imports no app code, so tests that set the environment first can use it.
 */

/** The variable through which the setup tells the test processes where the template is. */
export const PGLITE_TEMPLATE_VARIABLE = "VERIDESK_TEST_PGLITE_TEMPLATE";

/**
 * Copies the migrated template into `dataDir` (which must not exist yet) and answers true; answers
 * false, copying nothing, when there is no template (a benchmark, or a run outside the integration
 * project): opening the directory then creates and migrates it as before.
 */
export function copyMigratedPgliteTemplate(dataDir: string): boolean {
  const template = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (!template || !fs.existsSync(template)) return false;
  fs.cpSync(template, dataDir, { recursive: true });
  return true;
}
