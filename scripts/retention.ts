/**
 * The retention job by hand (ADR 0022): the same job the app runs on its schedule.
 *
 *   npm run retention -- --dry-run     counts what is due, erases nothing, writes no audit event
 *   npm run retention -- --apply       erases what is due; one audit event with the counts
 *
 * Safe beside running app instances on PostgreSQL (the job's advisory lock: if an instance is
 * running it right now this run says "skipped"). On PGlite the app owns the data directory: stop
 * it first (the app runs the job itself anyway).
 */
import { closeDb, getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { retentionSettingsFrom, runRetentionJob } from "@/lib/compliance/retention-job";

const dryRun = process.argv.includes("--dry-run");
const apply = process.argv.includes("--apply");
if (dryRun === apply) {
  console.error("Say what to do: npm run retention -- --dry-run   or   npm run retention -- --apply");
  process.exit(2);
}

try {
  const settings = env();
  const report = await runRetentionJob(await getDb(), { settings: retentionSettingsFrom(settings), dryRun, trigger: "command" });
  if (report.status === "skipped") {
    console.log("Skipped: another instance is running the retention job right now. Try again in a minute.");
  } else {
    const verb = dryRun ? "would erase" : "erased";
    console.log(
      `Retention (contact ${report.settings.contactDays} days, identity ${report.settings.identityYears} years): examined ${report.examined} token(s); ` +
        `${verb} contact data of ${report.contactErased} and identity data of ${report.identityErased}; ${report.heldSkipped} due but under a legal hold. ` +
        `${(report.durationMs / 1000).toFixed(1)} s.${dryRun ? " Dry run: nothing changed." : ""}`,
    );
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await closeDb();
}
