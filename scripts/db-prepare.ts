/**
 * Prepares the database before the app opens it, in one process (scripts/serve-app.ts runs it):
 * the migrations and the contact-encryption backfill (as `npm run db:migrate`), then, unless
 * APP_ENV=production, the demo staff on an empty database (as `npm run db:seed -- --if-empty`; with
 * E2E_SEED_DEMO=1 the review demo tokens too), then, in an end-to-end run (APP_ENV=test), the live
 * specs' fixtures (e2e/support/live-seed.ts).
 *
 * One process rather than one per step, and one opening of the database for all the steps:
 * starting tsx, loading the modules and PGlite's WebAssembly cost about 5 CPU-seconds each time,
 * opening a PGlite directory about one more, and the end-to-end runs start an app about ten times
 * (ADR 0040). In a test run with a database template (scripts/support/test-database-template.ts),
 * a new PGlite directory starts as a copy of the template rather than from nothing.
 *
 *   tsx --conditions=react-server scripts/db-prepare.ts
 */
import { env } from "@/lib/env";
import { openConfiguredDatabase, reportMigrationsAndBackfill } from "./db-migrate";
import { seedConfiguredDatabase } from "./db-seed";
import { copyTestDatabaseTemplate, TEST_DATABASE_TEMPLATE_VARIABLE } from "./support/test-database-template";

let step = "db:migrate";
let opened: Awaited<ReturnType<typeof openConfiguredDatabase>> | undefined;
try {
  const settings = env();
  // Test runs only (APP_ENV=test): a template holds the demo staff with their published passwords
  // and test-only authenticators, which must never reach a database anyone works on; and a
  // developer's or a bank's database is never replaced, whatever the environment says. The copy
  // is only where the steps below would start: they still run, and apply what it lacks.
  const template = process.env[TEST_DATABASE_TEMPLATE_VARIABLE];
  if (template && settings.APP_ENV === "test" && !settings.DATABASE_URL) {
    step = "copying the test database template";
    const copy = copyTestDatabaseTemplate(template, settings.PGLITE_DATA_DIR, settings);
    console.log(copy.copied === "none" ? `Test database template not used: ${copy.why}.` : `Started from the test run's ${copy.copied} database template (${copy.why}).`);
    step = "db:migrate";
  }
  opened = await openConfiguredDatabase("scripts/db-prepare.ts");
  await reportMigrationsAndBackfill(opened);
  if (settings.APP_ENV !== "production") {
    step = "db:seed";
    await seedConfiguredDatabase({ onlyIfEmpty: true, withDemoTokens: process.env.E2E_SEED_DEMO === "1", db: opened.db });
  }
  // End-to-end runs also get the token fixtures that must exist before the app starts (e.g. a token
  // issued 16 minutes ago), since only the app process may open the embedded database afterwards.
  if (settings.APP_ENV === "test") {
    step = "e2e/support/live-seed.ts";
    const { seedLiveFixtures } = await import("../e2e/support/live-seed");
    await seedLiveFixtures(opened.db);
  }
} catch (error) {
  console.error(`${step} failed.\n${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await opened?.close();
}
