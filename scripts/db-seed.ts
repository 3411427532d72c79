/**
 * Seeds the demo branches and staff accounts of a local run, and prints the accounts.
 *
 *   tsx --conditions=react-server scripts/db-seed.ts [--if-empty] [--demo]      (npm run db:seed)
 *
 * `--if-empty` seeds only a database without staff (used by `npm start` on its first run).
 * `--demo` also writes demo tokens for the review screens: five branches, their tellers and 30
 * days of tokens in every state (scripts/demo-data/seed.ts); once only, whatever `--if-empty` says.
 * Refused when APP_ENV=production: there, `npm run staff:create` makes the first administrator.
 * On PGlite it owns the data directory while it runs: stop the app first.
 */
import { closeDb, getDb } from "@/lib/db/client";
import type { Database } from "@/lib/db/types";
import { seedReviewDemoData } from "@/scripts/demo-data/seed";
import { formatDemoAccountsTable, seedDemoData } from "@/lib/staff/seed";
import { isMainModule } from "./support/main-module";

/**
 * Seeds the demo staff (and, with `withDemoTokens`, the review demo tokens) into `db` (default:
 * the configured database) and prints what it did; throws on failure. Leaves the database open:
 * the caller closes it (`closeDb`), so scripts/db-prepare.ts can go on with the same connection.
 */
export async function seedConfiguredDatabase(options: { onlyIfEmpty: boolean; withDemoTokens: boolean; db?: Database }): Promise<void> {
  const db = options.db ?? (await getDb());
  const report = await seedDemoData(db, { onlyIfEmpty: options.onlyIfEmpty });
  if (report.skippedBecauseNotEmpty) {
    console.log("Staff accounts exist already: nothing seeded.");
  } else {
    console.log(
      `Seeded ${report.createdBranches.length} branch(es) and ${report.createdAccounts.length} demo account(s)` +
        (report.createdAccounts.length ? `: ${report.createdAccounts.join(", ")}` : " (all present already)."),
    );
  }
  if (options.withDemoTokens) {
    const demo = await seedReviewDemoData(db);
    console.log(
      demo.skipped
        ? "Demo tokens exist already: nothing added."
        : `Added ${demo.tokens} demo tokens (${demo.events} history events) over ${demo.branches} branches and ${demo.tellers} tellers in ${(demo.durationMs / 1000).toFixed(1)} s.`,
    );
  }
  if (report.accounts.length > 0) {
    console.log("\nDemo accounts (local sandbox only — refused when APP_ENV=production):\n");
    console.log(formatDemoAccountsTable(report.accounts));
    console.log("");
  }
}

if (isMainModule(import.meta.url)) {
  try {
    await seedConfiguredDatabase({ onlyIfEmpty: process.argv.includes("--if-empty"), withDemoTokens: process.argv.includes("--demo") });
  } catch (error) {
    console.error(`db:seed failed.\n${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    await closeDb();
  }
}
