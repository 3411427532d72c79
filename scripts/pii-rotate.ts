/**
 * Rotates the keys of customer data (docs/operations.md "Rotate the PII keys"):
 *
 *   PII_ENCRYPTION_KEY=<old> PII_INDEX_KEY=<old> \
 *   PII_ENCRYPTION_KEY_NEW=<new> PII_INDEX_KEY_NEW=<new> npm run pii:rotate -- --dry-run | --apply
 *
 * With every instance stopped. --dry-run counts the rows under the old key; --apply re-encrypts
 * them and recomputes the blind indexes under the new keys (lib/pii/rotation.ts), writes one
 * audit event, and checks that no row is left under another key. Then start the instances with
 * the new keys. Safe to run again after an interruption: rows already rotated are skipped.
 */
import { closeDb, getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { decodeKey, keyIdOf, resolvePiiKeys, type PiiKeys } from "@/lib/pii/keys";
import { countRowsNotUnderKey, rotatePiiKeys } from "@/lib/pii/rotation";

const dryRun = process.argv.includes("--dry-run");
const apply = process.argv.includes("--apply");
if (dryRun === apply) {
  console.error("Say what to do: npm run pii:rotate -- --dry-run   or   npm run pii:rotate -- --apply");
  process.exit(2);
}

function newKeys(): PiiKeys {
  const encryption = process.env.PII_ENCRYPTION_KEY_NEW;
  const index = process.env.PII_INDEX_KEY_NEW;
  if (!encryption || !index) throw new Error("Set PII_ENCRYPTION_KEY_NEW and PII_INDEX_KEY_NEW (32 random bytes each, base64 or hex: `openssl rand -base64 32`).");
  const encryptionKey = decodeKey(encryption);
  const indexKey = decodeKey(index);
  if (encryptionKey.length !== 32 || indexKey.length !== 32) throw new Error("PII_ENCRYPTION_KEY_NEW and PII_INDEX_KEY_NEW must be 32 bytes each.");
  if (encryptionKey.equals(indexKey)) throw new Error("PII_ENCRYPTION_KEY_NEW and PII_INDEX_KEY_NEW must be different keys.");
  return { encryptionKey, indexKey, encryptionKeyId: keyIdOf(encryptionKey) };
}

try {
  const settings = env();
  if (!settings.PII_ENCRYPTION_KEY || !settings.PII_INDEX_KEY) {
    throw new Error("Set the current keys as PII_ENCRYPTION_KEY and PII_INDEX_KEY: rotation is for keys kept in the environment (a local run's generated key file is not rotated).");
  }
  const from = resolvePiiKeys(settings);
  const to = newKeys();
  const db = await getDb();
  const report = await rotatePiiKeys(db, { from, to, dryRun });
  const left = dryRun ? null : await countRowsNotUnderKey(db, to.encryptionKeyId);
  console.log(
    `PII keys ${report.fromKeyId} → ${report.toKeyId}: ${report.rowsToRotate} token request(s) under the old key; ` +
      (dryRun
        ? "dry run: nothing changed."
        : `${report.rowsRotated} rotated (${report.valuesReencrypted} values re-encrypted, ${report.indexesRecomputed} indexes recomputed) in ${(report.durationMs / 1000).toFixed(1)} s.`),
  );
  if (report.rowsUnderAnotherKey > 0) console.log(`${report.rowsUnderAnotherKey} row(s) hold values under a third key and were left alone.`);
  if (left !== null && left > 0) {
    console.log(`${left} row(s) are still not under the new key (was an instance running?). Stop every instance and run --apply again.`);
    process.exitCode = 1;
  } else if (!dryRun) {
    console.log("Done. Start the instances with PII_ENCRYPTION_KEY and PII_INDEX_KEY set to the new keys.");
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await closeDb();
}
