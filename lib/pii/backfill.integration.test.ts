import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tokenRequests } from "@/lib/db/schema";
import { aBranch, aStaffMember, aTokenRequest } from "@/test/kit/builders";
import { forEachDatabase, makeScratchDatabase, scratchPiiKeys, type UnopenedScratchDatabase } from "@/test/kit/database";
import { computeReferenceIndex } from "./blind-index";
import { backfillContactEncryption } from "./backfill";
import { decryptField } from "./field-encryption";

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
