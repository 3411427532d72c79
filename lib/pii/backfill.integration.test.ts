import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tokenRequests } from "@/lib/db/schema";
import { aBranch, aStaffMember, aTokenRequest } from "@/test/kit/builders";
import { forEachDatabase, makeScratchDatabase, scratchPiiKeys, type UnopenedScratchDatabase } from "@/test/kit/database";
import { computePhoneNumberIndex, computeReferenceIndex } from "./blind-index";
import { backfillContactEncryption, backfillPhoneNumberIndex } from "./backfill";
import { decryptField, encryptField } from "./field-encryption";

/**
 * Rows written before the reference and phones were encrypted (ADR 0023) hold them in clear; the
 * backfill the server start and `npm run db:migrate` run after opening the database encrypts them
 * and leaves only the masked copy, and a second run changes nothing.
 */

const keys = scratchPiiKeys();

forEachDatabase("encryption backfill of older rows", (driver) => {
  // Opened three times, as three starts of the server would.
  let scratch: UnopenedScratchDatabase;
  beforeAll(async () => {
    scratch = await makeScratchDatabase({ driver, name: "backfill" });
  });
  afterAll(async () => {
    await scratch?.destroy();
  });

  it("encrypts the clear reference and phone numbers of older rows, masks them, and is a no-op the second time", async () => {
    const id = randomUUID();
    const first = await scratch.open("backfill test");
    const branch = await aBranch(first.db);
    const { userId } = await aStaffMember(first.db, { role: "teller", branchId: branch.id });
    // What a row written before the migration looks like: clear values, no ciphertext.
    await aTokenRequest(first.db, {
      id,
      idType: "VOTER",
      issuedByUserId: userId,
      branchId: branch.id,
      referenceMasked: "0244123987",
      phoneNumberMasked: "0244123987",
      smsSentToMasked: "233244123987",
      idNumberEncrypted: "x",
      idNumberIndex: "x",
      idNumberLast4: "1234",
    });
    await first.close();

    const second = await scratch.open("backfill test");
    await backfillContactEncryption(second.db, () => keys);
    const [row] = await second.db.select().from(tokenRequests).where(eq(tokenRequests.id, id));
    expect(JSON.stringify(row)).not.toContain("4123987");
    expect(row).toMatchObject({ referenceMasked: "024 ••• 3987", phoneNumberMasked: "024 ••• 3987", smsSentToMasked: "233 ••••• 3987" });
    expect(decryptField(row!.referenceEncrypted!, `token_requests.reference:${id}`, keys)).toBe("0244123987");
    expect(decryptField(row!.phoneNumberEncrypted!, `token_requests.phone_number:${id}`, keys)).toBe("0244123987");
    expect(decryptField(row!.smsSentToEncrypted!, `token_requests.sms_sent_to:${id}`, keys)).toBe("233244123987");
    expect(row!.referenceIndex).toBe(computeReferenceIndex("0244123987", keys));
    await second.close();

    const third = await scratch.open("backfill test");
    await backfillContactEncryption(third.db, () => keys);
    const [again] = await third.db.select().from(tokenRequests).where(eq(tokenRequests.id, id));
    expect(again).toEqual(row);
    await third.close();
    // Three starts of a new PGlite directory take a while on a busy machine.
  }, 120_000);
});

forEachDatabase("phone blind index backfill of older rows", (driver) => {
  let scratch: UnopenedScratchDatabase;
  beforeAll(async () => {
    scratch = await makeScratchDatabase({ driver, name: "phone_index_backfill" });
  });
  afterAll(async () => {
    await scratch?.destroy();
  });

  it("indexes the encrypted phones of tokens issued before the index, in batches, leaves erased and unreadable rows alone, and is a no-op the second time", async () => {
    const opened = await scratch.open("phone index backfill test");
    try {
      const { db } = opened;
      const branch = await aBranch(db);
      const { userId } = await aStaffMember(db, { role: "teller", branchId: branch.id });
      const base = { idType: "GHANA_CARD" as const, issuedByUserId: userId, branchId: branch.id, idNumberEncrypted: "x", idNumberIndex: "x", idNumberLast4: "1234" };
      // Tokens issued after the phone was encrypted but before its index existed: ciphertext only.
      const phones = ["0244123987", "0551234567", "+44 7700 900123", "233201112223", "0209998887"];
      const older = [];
      for (const phone of phones) {
        const id = randomUUID();
        older.push({ id, phone });
        await aTokenRequest(db, { ...base, id, phoneNumberMasked: "masked", phoneNumberEncrypted: encryptField(phone, `token_requests.phone_number:${id}`, keys) });
      }
      // Erased: the phone is gone, and nothing is to be computed for it.
      const erasedId = randomUUID();
      await aTokenRequest(db, { ...base, id: erasedId, phoneNumberMasked: null, phoneNumberEncrypted: null, contactErasedAt: new Date(), contactErasedUnder: "retention" });
      // Erased while its ciphertext was still there (an erasure racing the backfill): left alone too.
      const erasingId = randomUUID();
      await aTokenRequest(db, { ...base, id: erasingId, phoneNumberEncrypted: encryptField("0240000001", `token_requests.phone_number:${erasingId}`, keys), contactErasedAt: new Date(), contactErasedUnder: "request" });
      // Encrypted with other keys (a restore started without its keys): skipped, counted, not fatal.
      const unreadableId = randomUUID();
      await aTokenRequest(db, { ...base, id: unreadableId, phoneNumberEncrypted: encryptField("0240000002", `token_requests.phone_number:${unreadableId}`, scratchPiiKeys()) });
      // A token issued with the index already: untouched.
      const currentId = randomUUID();
      await aTokenRequest(db, { ...base, id: currentId, phoneNumberEncrypted: encryptField("0240000003", `token_requests.phone_number:${currentId}`, keys), phoneNumberIndex: "kept", phoneCallingCode: "233" });

      expect(await backfillPhoneNumberIndex(db, () => keys, { batchSize: 2 })).toEqual({ indexed: phones.length, unreadable: 1 });
      const rowOf = async (id: string) => (await db.select().from(tokenRequests).where(eq(tokenRequests.id, id)))[0]!;
      for (const { id, phone } of older) {
        expect(await rowOf(id)).toMatchObject({ phoneNumberIndex: computePhoneNumberIndex(phone, keys), phoneCallingCode: phone.startsWith("+44") ? "other" : "233" });
      }
      // One phone typed two ways is one phone to the rules.
      expect((await rowOf(older[0]!.id)).phoneNumberIndex).toBe(computePhoneNumberIndex("+233 24 412 3987", keys));
      for (const id of [erasedId, erasingId, unreadableId]) expect(await rowOf(id)).toMatchObject({ phoneNumberIndex: null, phoneCallingCode: null });
      expect(await rowOf(currentId)).toMatchObject({ phoneNumberIndex: "kept", phoneCallingCode: "233" });

      const before = await db.select().from(tokenRequests);
      expect(await backfillPhoneNumberIndex(db, () => keys)).toEqual({ indexed: 0, unreadable: 1 });
      expect(await db.select().from(tokenRequests)).toEqual(before);
    } finally {
      await opened.close();
    }
  }, 120_000);
});
