import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Prepared embedded databases a test run copies instead of making each app's database from nothing.
 *
 * Every end-to-end app and failure drill of `npm test` starts on a fresh PGlite directory, and
 * scripts/db-prepare.ts made each one from nothing: initdb, every migration and the demo staff
 * (seven scrypt password hashes) cost about 8 of its 13 CPU-seconds; copying a directory made once
 * costs a tenth of one. scripts/test.ts makes the templates once per run
 * (make-test-database-template.ts) and tells every stage where they are through
 * TEST_DATABASE_TEMPLATE_VARIABLE; db-prepare copies one into a data directory that does not exist
 * yet, then runs its usual steps, which find nothing left to do but what a copy cannot hold (a
 * migration added since, the live fixtures, whose times are relative to the app's start).
 *
 * Two templates in the folder:
 * - `migrated/`: every migration, no rows. Fits any database of the run.
 * - `seeded/`: the same with the demo branches and staff, as `db:seed --if-empty` writes them in a
 *   test run. Fits only an app with the same AUTH_SECRET (the demo administrators' authenticator
 *   secret is encrypted with it) and PII keys as the run that made it, which `seeded.settings`
 *   records as a hash; the failure drills, which draw secrets of their own, take `migrated/`.
 * The review run's 30 days of demo tokens are not in a template: they are laid out around the
 * moment they are written, so a copy made minutes earlier would not be the same data.
 *
 * This module imports no app code (db-prepare passes the settings it resolved).
 */

/** The variable through which a test run tells its stages where the templates are. */
export const TEST_DATABASE_TEMPLATE_VARIABLE = "VERIDESK_TEST_DATABASE_TEMPLATE";

export type TemplateSettings = { AUTH_SECRET: string; PII_ENCRYPTION_KEY?: string; PII_INDEX_KEY?: string };

/** A hash of the settings the seeded rows depend on: the secrets themselves are never written. */
export function templateSettingsStamp(settings: TemplateSettings): string {
  const material = JSON.stringify([settings.AUTH_SECRET, settings.PII_ENCRYPTION_KEY ?? "", settings.PII_INDEX_KEY ?? ""]);
  return createHash("sha256").update(material).digest("hex");
}

export const templatePaths = (root: string) => ({
  migrated: path.join(root, "migrated"),
  seeded: path.join(root, "seeded"),
  seededStamp: path.join(root, "seeded.settings"),
});

export type TemplateCopy = { copied: "seeded" | "migrated" | "none"; why: string };

/**
 * Copies the best-fitting template of `root` into `dataDir` when `dataDir` does not exist yet or
 * is empty: `seeded/` when `settings` match those it was made with, else `migrated/`. Copies
 * nothing (and answers why) when there is no template or the directory already holds a database:
 * a database is never replaced.
 */
export function copyTestDatabaseTemplate(root: string, dataDir: string, settings: TemplateSettings): TemplateCopy {
  const paths = templatePaths(root);
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) return { copied: "none", why: "the data directory holds a database already" };
  const seededFits = fs.existsSync(paths.seeded) && readIfExists(paths.seededStamp) === templateSettingsStamp(settings);
  const from = seededFits ? "seeded" : fs.existsSync(paths.migrated) ? "migrated" : undefined;
  if (!from) return { copied: "none", why: `no template in ${root}` };
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  fs.cpSync(paths[from], dataDir, { recursive: true });
  return { copied: from, why: seededFits ? "same secrets as the template" : "secrets of its own: the demo staff are seeded now" };
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}
