import "server-only";
import { and, asc, eq, gt, isNotNull, isNull, or } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { tokenRequests } from "@/lib/db/schema";
import { computePhoneNumberIndex, phoneCallingCodeOf } from "./blind-index";
import { piiContext } from "./columns";
import { encryptContactFields } from "./contact-fields";
import { decryptField } from "./field-encryption";
import type { PiiKeys } from "./keys";

type AnyDatabase = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

const batchSize = 500;

/**
 * Encrypts the reference and phone numbers of rows written before they were encrypted (ADR 0023):
 * reads the clear values still in reference_id, phone_number and sms_sent_to, writes ciphertext
 * and blind index, and leaves only the masked copy in those columns. Runs after opening the
 * database, at server start (lib/server/start.ts) and in `npm run db:migrate`; a row is done when reference_encrypted
 * is set, so a second run, or a run interrupted half-way, picks up exactly the rows left. Keys are
 * asked for only when a row needs them, so a fresh database opens without any.
 */
export async function backfillContactEncryption(db: AnyDatabase, getKeys: () => PiiKeys): Promise<number> {
  let done = 0;
  for (;;) {
    const rows = await db
      .select({ id: tokenRequests.id, reference: tokenRequests.referenceMasked, phone: tokenRequests.phoneNumberMasked, sms: tokenRequests.smsSentToMasked })
      .from(tokenRequests)
      .where(and(isNull(tokenRequests.referenceEncrypted), isNotNull(tokenRequests.referenceMasked), isNull(tokenRequests.contactErasedAt)))
      .orderBy(asc(tokenRequests.id))
      .limit(batchSize);
    if (rows.length === 0) return done;
    const keys = getKeys();
    await db.transaction(async (tx) => {
      for (const row of rows) {
        const fields = encryptContactFields(row.id, { reference: row.reference!, phoneNumber: row.phone, smsSentTo: row.sms }, keys);
        await tx
          .update(tokenRequests)
          .set(fields)
          .where(and(eq(tokenRequests.id, row.id), isNull(tokenRequests.referenceEncrypted)));
      }
    });
    done += rows.length;
  }
}

/**
 * Computes the phone's blind index and calling code (the risk rules' "same phone" and "link sent
 * abroad", ADR 0046) for rows written before those columns existed: they hold the phone only as
 * ciphertext. Runs where and when the encryption backfill above runs, after it. Batched by id, each
 * batch in one transaction; a row is done when both are set, so a second run, or one interrupted
 * half-way, finds only what is left. Erased rows are left alone (their phone is gone, and the
 * update re-checks that in case an erasure came between the read and the write).
 *
 * A phone that cannot be decrypted (a restore started without the backed-up keys: the customer
 * data is unreadable by design, docs/operations.md) is counted and skipped, never fatal: the app
 * must still start, and the next run with the right keys indexes it.
 */
export async function backfillPhoneNumberIndex(
  db: AnyDatabase,
  getKeys: () => PiiKeys,
  options: { batchSize?: number } = {},
): Promise<{ indexed: number; unreadable: number }> {
  let indexed = 0;
  let unreadable = 0;
  let after: string | null = null;
  for (;;) {
    const needsIndex = and(
      isNotNull(tokenRequests.phoneNumberEncrypted),
      isNull(tokenRequests.contactErasedAt),
      or(isNull(tokenRequests.phoneNumberIndex), isNull(tokenRequests.phoneCallingCode)),
    );
    const rows = await db
      .select({ id: tokenRequests.id, phone: tokenRequests.phoneNumberEncrypted })
      .from(tokenRequests)
      .where(after === null ? needsIndex : and(needsIndex, gt(tokenRequests.id, after)))
      .orderBy(asc(tokenRequests.id))
      .limit(options.batchSize ?? batchSize);
    if (rows.length === 0) return { indexed, unreadable };
    after = rows.at(-1)!.id;
    const keys = getKeys();
    const computed = rows.flatMap((row) => {
      try {
        const phone = decryptField(row.phone!, piiContext("phone_number", row.id), keys);
        return [{ id: row.id, phoneNumberIndex: computePhoneNumberIndex(phone, keys), phoneCallingCode: phoneCallingCodeOf(phone) }];
      } catch {
        unreadable += 1;
        return [];
      }
    });
    await db.transaction(async (tx) => {
      for (const { id, ...fields } of computed) {
        await tx
          .update(tokenRequests)
          .set(fields)
          .where(and(eq(tokenRequests.id, id), isNotNull(tokenRequests.phoneNumberEncrypted), isNull(tokenRequests.contactErasedAt)));
      }
    });
    indexed += computed.length;
  }
}
