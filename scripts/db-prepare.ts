/**
 * Prepares the database before the app opens it, in one process (scripts/serve-app.ts runs it):
 * the migrations and the contact-encryption backfill (as `npm run db:migrate`), then, unless
 * APP_ENV=production, the demo staff on an empty database (as `npm run db:seed -- --if-empty`; with
 * E2E_SEED_DEMO=1 the review demo tokens too), then, in an end-to-end run (APP_ENV=test), the live
 * specs' fixtures (e2e/support/live-seed.ts).
 *
 * One process rather than one per step: starting tsx, loading the modules and PGlite's WebAssembly
 * cost about 5 CPU-seconds each time, and the end-to-end runs start an app about ten times (ADR 0040).
 *
 *   tsx --conditions=react-server scripts/db-prepare.ts
 */
import { closeDb } from "@/lib/db/client";
import { migrateConfiguredDatabase } from "./db-migrate";
import { seedConfiguredDatabase } from "./db-seed";

const isProduction = process.env.APP_ENV === "production";

let step = "db:migrate";
try {
  await migrateConfiguredDatabase();
  if (!isProduction) {
    step = "db:seed";
    await seedConfiguredDatabase({ onlyIfEmpty: true, withDemoTokens: process.env.E2E_SEED_DEMO === "1" });
  }
  // End-to-end runs also get the token fixtures that must exist before the app starts (e.g. a token
  // issued 16 minutes ago), since only the app process may open the embedded database afterwards.
  if (process.env.APP_ENV === "test") {
    step = "e2e/support/live-seed.ts";
    const { seedLiveFixtures } = await import("../e2e/support/live-seed");
    await seedLiveFixtures();
  }
} catch (error) {
  console.error(`${step} failed.\n${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
