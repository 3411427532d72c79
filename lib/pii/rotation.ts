import "server-only";
import { and, asc, eq, getTableColumns, gt, or, sql, type SQL } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/types";
import { tokenRequests } from "@/lib/db/schema";
import { computeIdNumberIndex, computePhoneNumberIndex, computeReferenceIndex } from "./blind-index";
import { allBlindIndexPiiColumns, allEncryptedPiiColumns, piiContext } from "./columns";
import { decryptField, encryptField } from "./field-encryption";
import type { PiiKeys } from "./keys";

/**
 * PII key rotation (docs/operations.md): every encrypted column of every token request
 * is decrypted under the old encryption key and encrypted under the new one, and every blind index
 * is recomputed from the same plaintext under the new index key — the columns come from the one
 * list in columns.ts. Run with every instance stopped (`npm run pii:rotate`): an instance still
 * writing under the old key would leave rows behind (the run counts them and says so).
 *
 * Batches of rows in id order, each batch one transaction, so a run stopped half-way leaves every
 * row whole under one key or the other; a row already under the new key is skipped, so running it
 * again finishes the work. The request fingerprints (idempotency of a submit retried within
 * minutes) are left as they are: no retry spans an offline rotation. One audit event at the end.
 */

export type RotationReport = {
  dryRun: boolean;
  fromKeyId: string;
  toKeyId: string;
  /** Rows with a value under the old key. */
  rowsToRotate: number;
  rowsRotated: number;
  valuesReencrypted: number;
  indexesRecomputed: number;
  /** Values under neither key: their rows are left alone (another rotation half-done with a third key?). */
  rowsUnderAnotherKey: number;
  durationMs: number;
};

const BATCH_SIZE = 500;

type Row = Record<string, string | null> & { id: string };

const encryptedColumnNames = allEncryptedPiiColumns.map((entry) => entry.column);

/** Drizzle's property of each SQL column of the table (columns.ts names SQL columns). */
const propertyOfColumn = new Map(Object.entries(getTableColumns(tokenRequests)).map(([property, column]) => [column.name, property]));
function columnObject(name: string) {
  const property = propertyOfColumn.get(name);
  if (!property) throw new Error(`token_requests has no column ${name} (lib/pii/columns.ts)`);
  return getTableColumns(tokenRequests)[property as keyof ReturnType<typeof getTableColumns<typeof tokenRequests>>];
}
const indexFunctions = {
  "id-number": computeIdNumberIndex,
  reference: computeReferenceIndex,
  phone: computePhoneNumberIndex,
} as const;

function keyIdOfValue(stored: string): string | undefined {
  return stored.split(".")[1];
}

/** Rows holding at least one value not under `toKeyId`, after `afterId`. */
function notYetRotated(toKeyId: string, afterId: string | null): SQL {
  const prefix = `v1.${toKeyId}.%`;
  const anyOld = or(
    ...encryptedColumnNames.map((column) => sql`(${columnObject(column)} IS NOT NULL AND ${columnObject(column)} NOT LIKE ${prefix})`),
  )!;
  return afterId === null ? anyOld : and(anyOld, gt(tokenRequests.id, afterId))!;
}

export async function rotatePiiKeys(db: Database, options: { from: PiiKeys; to: PiiKeys; dryRun: boolean }): Promise<RotationReport> {
  const started = performance.now();
  const { from, to, dryRun } = options;
  if (from.encryptionKeyId === to.encryptionKeyId) throw new Error("the new encryption key is the old one");
  if (from.indexKey.equals(to.indexKey)) throw new Error("the new index key is the old one");
  const report: RotationReport = {
    dryRun,
    fromKeyId: from.encryptionKeyId,
    toKeyId: to.encryptionKeyId,
    rowsToRotate: 0,
    rowsRotated: 0,
    valuesReencrypted: 0,
    indexesRecomputed: 0,
    rowsUnderAnotherKey: 0,
    durationMs: 0,
  };

  let afterId: string | null = null;
  for (;;) {
    const batch: Row[] = await db.transaction(async (tx) => {
      const rows = (await tx
        .select({ id: tokenRequests.id, ...Object.fromEntries(encryptedColumnNames.map((column) => [column, columnObject(column)])) })
        .from(tokenRequests)
        .where(notYetRotated(to.encryptionKeyId, afterId))
        .orderBy(asc(tokenRequests.id))
        .limit(BATCH_SIZE)
        .for("update")) as Row[];
      for (const row of rows) {
        const keyIds = encryptedColumnNames.map((column) => row[column]).filter((value): value is string => value !== null).map(keyIdOfValue);
        if (keyIds.some((keyId) => keyId !== from.encryptionKeyId && keyId !== to.encryptionKeyId)) {
          report.rowsUnderAnotherKey += 1;
          continue;
        }
        report.rowsToRotate += 1;
        if (dryRun) continue;
        const changes = rotatedColumns(row, from, to);
        report.valuesReencrypted += changes.valuesReencrypted;
        report.indexesRecomputed += changes.indexesRecomputed;
        await tx
          .update(tokenRequests)
          .set(Object.fromEntries(Object.entries(changes.columns).map(([column, value]) => [propertyOfColumn.get(column)!, value])))
          .where(eq(tokenRequests.id, row.id));
        report.rowsRotated += 1;
      }
      return rows;
    });
    if (batch.length < BATCH_SIZE) break;
    afterId = batch.at(-1)!.id;
  }

  report.durationMs = Math.round(performance.now() - started);
  if (!dryRun) {
    await recordAuditEvent(db, {
      action: "pii.keys_rotated",
      actor: null,
      actorLabel: "pii:rotate",
      subject: { type: "pii_keys", id: to.encryptionKeyId },
      details: {
        fromKeyId: report.fromKeyId,
        toKeyId: report.toKeyId,
        rowsRotated: report.rowsRotated,
        valuesReencrypted: report.valuesReencrypted,
        indexesRecomputed: report.indexesRecomputed,
        rowsUnderAnotherKey: report.rowsUnderAnotherKey,
      },
    });
  }
  return report;
}

/** The row's encrypted values under the new key and its blind indexes recomputed, by column name. */
function rotatedColumns(row: Row, from: PiiKeys, to: PiiKeys): { columns: Record<string, string | null>; valuesReencrypted: number; indexesRecomputed: number } {
  const columns: Record<string, string | null> = {};
  const plaintexts = new Map<string, string>();
  let valuesReencrypted = 0;
  for (const { column, aad } of allEncryptedPiiColumns) {
    const stored = row[column];
    if (stored === null || stored === undefined) continue;
    const context = piiContext(aad, row.id);
    const isOld = keyIdOfValue(stored) === from.encryptionKeyId;
    const plaintext = decryptField(stored, context, isOld ? from : to);
    plaintexts.set(column, plaintext);
    if (isOld) {
      columns[column] = encryptField(plaintext, context, to);
      valuesReencrypted += 1;
    }
  }
  let indexesRecomputed = 0;
  for (const { column, domain, source } of allBlindIndexPiiColumns) {
    const plaintext = plaintexts.get(source);
    if (plaintext === undefined) continue;
    columns[column] = indexFunctions[domain](plaintext, to);
    indexesRecomputed += 1;
  }
  return { columns, valuesReencrypted, indexesRecomputed };
}

/** Rows still holding a value under a key other than `keyId` (0 once a rotation to it is complete). */
export async function countRowsNotUnderKey(db: Database, keyId: string): Promise<number> {
  const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(tokenRequests).where(notYetRotated(keyId, null));
  return row?.total ?? 0;
}
