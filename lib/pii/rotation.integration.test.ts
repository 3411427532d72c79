import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { OpenedDatabase } from "@/lib/db/types";
import { auditEvents, tokenRequests } from "@/lib/db/schema";
import { aBranch, aStaffMember, aTokenRequest } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { computeIdNumberIndex, computePhoneNumberIndex, computeReferenceIndex } from "./blind-index";
import { decryptField, encryptField } from "./field-encryption";
import { countRowsNotUnderKey, rotatePiiKeys } from "./rotation";

/**
 * Rotating the PII keys re-encrypts every value and recomputes every blind index under
 * the new keys, leaves erased rows alone, is audited, and a second run finds nothing to do.
 */

const oldKeys = scratchPiiKeys();
const newKeys = scratchPiiKeys();
const customer = { idNumber: "GHA-712345678-9", dateOfBirth: "1990-04-01", reference: "0244123987", phone: "0244123987" };
const rows = { whole: randomUUID(), contactErased: randomUUID(), allErased: randomUUID() };

forEachDatabase("PII key rotation", (driver) => {
  let scratch: ScratchDatabase;
  let opened: OpenedDatabase;

  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "rotation" });
    opened = scratch.opened;
    const branch = await aBranch(opened.db);
    const { userId } = await aStaffMember(opened.db, { role: "teller", branchId: branch.id });
    const encrypt = (value: string, column: string, id: string) => encryptField(value, `token_requests.${column}:${id}`, oldKeys);
    for (const [name, id] of Object.entries(rows)) {
      const hasIdentity = name !== "allErased";
      const hasContact = name === "whole";
      await aTokenRequest(opened.db, {
        id,
        issuedByUserId: userId,
        branchId: branch.id,
        idNumberEncrypted: hasIdentity ? encrypt(customer.idNumber, "id_number", id) : null,
        dateOfBirthEncrypted: hasIdentity ? encrypt(customer.dateOfBirth, "date_of_birth", id) : null,
        idNumberIndex: hasIdentity ? computeIdNumberIndex(customer.idNumber, oldKeys) : null,
        idNumberLast4: hasIdentity ? "7899" : null,
        referenceEncrypted: hasContact ? encrypt(customer.reference, "reference", id) : null,
        referenceIndex: hasContact ? computeReferenceIndex(customer.reference, oldKeys) : null,
        phoneNumberEncrypted: hasContact ? encrypt(customer.phone, "phone_number", id) : null,
      });
    }
  }, 60_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  it("a dry run counts the rows under the old key and changes nothing", async () => {
    const before = await opened.db.select().from(tokenRequests);
    const report = await rotatePiiKeys(opened.db, { from: oldKeys, to: newKeys, dryRun: true });
    expect(report).toMatchObject({ rowsToRotate: 2, rowsRotated: 0, fromKeyId: oldKeys.encryptionKeyId, toKeyId: newKeys.encryptionKeyId });
    expect(await opened.db.select().from(tokenRequests)).toEqual(before);
  });

  it("re-encrypts every value and recomputes every index under the new keys, audited; a second run finds nothing", async () => {
    const report = await rotatePiiKeys(opened.db, { from: oldKeys, to: newKeys, dryRun: false });
    expect(report).toMatchObject({ rowsToRotate: 2, rowsRotated: 2, valuesReencrypted: 6, indexesRecomputed: 4, rowsUnderAnotherKey: 0 });
    expect(await countRowsNotUnderKey(opened.db, newKeys.encryptionKeyId)).toBe(0);

    const [whole] = await opened.db.select().from(tokenRequests).where(eq(tokenRequests.id, rows.whole));
    const read = (value: string | null, column: string) => decryptField(value!, `token_requests.${column}:${rows.whole}`, newKeys);
    expect(read(whole!.idNumberEncrypted, "id_number")).toBe(customer.idNumber);
    expect(read(whole!.dateOfBirthEncrypted, "date_of_birth")).toBe(customer.dateOfBirth);
    expect(read(whole!.referenceEncrypted, "reference")).toBe(customer.reference);
    expect(read(whole!.phoneNumberEncrypted, "phone_number")).toBe(customer.phone);
    // Searches under the new index key find the customer again.
    expect(whole!.idNumberIndex).toBe(computeIdNumberIndex(customer.idNumber, newKeys));
    expect(whole!.referenceIndex).toBe(computeReferenceIndex(customer.reference, newKeys));
    // The risk rules' phone index too (ADR 0046), from the phone's ciphertext.
    expect(whole!.phoneNumberIndex).toBe(computePhoneNumberIndex(customer.phone, newKeys));
    // The old key opens nothing any more.
    expect(() => decryptField(whole!.idNumberEncrypted!, `token_requests.id_number:${rows.whole}`, oldKeys)).toThrow();

    const [erased] = await opened.db.select().from(tokenRequests).where(eq(tokenRequests.id, rows.allErased));
    expect(erased).toMatchObject({ idNumberEncrypted: null, idNumberIndex: null, referenceEncrypted: null });

    const audited = await opened.db.select().from(auditEvents).where(eq(auditEvents.action, "pii.keys_rotated"));
    expect(audited).toHaveLength(1);
    expect(audited[0]!.details).toMatchObject({ fromKeyId: oldKeys.encryptionKeyId, toKeyId: newKeys.encryptionKeyId, rowsRotated: 2 });
    expect(JSON.stringify(audited[0]!.details)).not.toContain("712345678");

    const again = await rotatePiiKeys(opened.db, { from: oldKeys, to: newKeys, dryRun: false });
    expect(again).toMatchObject({ rowsToRotate: 0, rowsRotated: 0 });
  });

  it("refuses a new key equal to the old one", async () => {
    await expect(rotatePiiKeys(opened.db, { from: oldKeys, to: oldKeys, dryRun: true })).rejects.toThrow(/is the old one/);
  });
});
