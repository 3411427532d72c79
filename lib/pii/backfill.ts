import "server-only";
import { and, asc, isNotNull, isNull, eq } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { tokenRequests } from "@/lib/db/schema";
import { encryptContactFields } from "./contact-fields";
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
