/**
 * Makes a test run's database templates (test-database-template.ts says what they are and why)
 * in FOLDER, which must not exist yet; scripts/test.ts runs it once, before the stages that start apps.
 *
 *   APP_ENV=test tsx --conditions=react-server scripts/support/make-test-database-template.ts FOLDER
 */
import fs from "node:fs";
import { openDatabase } from "@/lib/db/client";
import { env } from "@/lib/env";
import { seedDemoData } from "@/lib/staff/seed";
import { templatePaths, templateSettingsStamp } from "./test-database-template";

const root = process.argv[2];
const settings = env();
try {
  if (!root) throw new Error("usage: make-test-database-template.ts FOLDER");
  // The seeded template holds the demo staff with their published passwords and test-only
  // authenticators: a test run's data, never anything else's.
  if (settings.APP_ENV !== "test") throw new Error("makes test databases only: run it with APP_ENV=test");
  if (fs.existsSync(root)) throw new Error(`${root} exists already`);
  // Made beside the folder and renamed into place, so a reader never meets half a template.
  const building = `${root}.building`;
  fs.rmSync(building, { recursive: true, force: true });
  const paths = templatePaths(building);

  const migrated = await openDatabase({ pgliteDataDir: paths.migrated, label: "the test run's database template" });
  console.log(`Migrated template: ${migrated.migrations.applied.length} migrations.`);
  await migrated.close();

  fs.cpSync(paths.migrated, paths.seeded, { recursive: true });
  const seeded = await openDatabase({ pgliteDataDir: paths.seeded, label: "the test run's database template" });
  try {
    const report = await seedDemoData(seeded.db, { onlyIfEmpty: true });
    console.log(`Seeded template: ${report.createdBranches.length} branches, ${report.createdAccounts.length} demo accounts.`);
  } finally {
    await seeded.close();
  }
  fs.writeFileSync(paths.seededStamp, `${templateSettingsStamp(settings)}\n`);
  fs.renameSync(building, root);
} catch (error) {
  console.error(`make-test-database-template failed.\n${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
