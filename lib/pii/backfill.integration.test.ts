import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { authUsers, branches, tokenRequests } from "@/lib/db/schema";
import { scratchPiiKeys } from "@/test/kit/database";
import { computeReferenceIndex } from "./blind-index";
import { backfillContactEncryption } from "./backfill";
import { decryptField } from "./field-encryption";

/**
 * Rows written before the reference and phones were encrypted (ADR 0023) hold them in clear; the
 * backfill the server start and `npm run db:migrate` run after opening the database encrypts them
 * and leaves only the masked copy, and a second run changes nothing.
 */

const keys = scratchPiiKeys();
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "veridesk-backfill-"));
const pgliteDataDir = path.join(tempDir, "pglite");

afterAll(() => fs.rmSync(tempDir, { recursive: true, force: true }));

describe("encryption backfill of older rows", () => {
  it("encrypts the clear reference and phone numbers of older rows, masks them, and is a no-op the second time", async () => {
    const id = randomUUID();
    const first = await openDatabase({ pgliteDataDir, label: "backfill test" });
    const [branch] = await first.db.insert(branches).values({ code: "BF1", name: "Backfill" }).returning();
    const userId = randomUUID();
    await first.db.insert(authUsers).values({ id: userId, name: "Teller", email: `${userId}@staff.invalid`, username: `bf${userId.slice(0, 6)}` });
    // What a row written before the migration looks like: clear values, no ciphertext.
    await first.db.insert(tokenRequests).values({
      id,
      idempotencyKey: randomUUID(),
      requestFingerprint: "fp",
      kind: "remote",
      idType: "VOTER",
      issuedByUserId: userId,
      branchId: branch!.id,
      referenceMasked: "0244123987",
      phoneNumberMasked: "0244123987",
      smsSentToMasked: "233244123987",
      idNumberEncrypted: "x",
      idNumberIndex: "x",
      idNumberLast4: "1234",
    });
    await first.close();

    const second = await openDatabase({ pgliteDataDir, label: "backfill test" });
    await backfillContactEncryption(second.db, () => keys);
    const [row] = await second.db.select().from(tokenRequests).where(eq(tokenRequests.id, id));
    expect(JSON.stringify(row)).not.toContain("4123987");
    expect(row).toMatchObject({ referenceMasked: "024 ••• 3987", phoneNumberMasked: "024 ••• 3987", smsSentToMasked: "233 ••••• 3987" });
    expect(decryptField(row!.referenceEncrypted!, `token_requests.reference:${id}`, keys)).toBe("0244123987");
    expect(decryptField(row!.phoneNumberEncrypted!, `token_requests.phone_number:${id}`, keys)).toBe("0244123987");
    expect(decryptField(row!.smsSentToEncrypted!, `token_requests.sms_sent_to:${id}`, keys)).toBe("233244123987");
    expect(row!.referenceIndex).toBe(computeReferenceIndex("0244123987", keys));
    await second.close();

    const third = await openDatabase({ pgliteDataDir, label: "backfill test" });
    await backfillContactEncryption(third.db, () => keys);
    const [again] = await third.db.select().from(tokenRequests).where(eq(tokenRequests.id, id));
    expect(again).toEqual(row);
    await third.close();
  });
});
