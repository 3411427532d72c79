import { randomUUID } from "node:crypto";
import type { OpenedDatabase } from "@/lib/db/types";
import { authUsers, branches, tokenRequests } from "@/lib/db/schema";
import type { UpstreamClient } from "@/lib/upstream";

/**
 * For the watcher's integration test and the provider benchmark: a branch, a teller, and `count`
 * fingerprint tokens issued by a real sandbox and recorded as issued at `issuedAt`, due a poll then.
 */
export async function seedIssuedTokens(
  db: OpenedDatabase["db"],
  upstream: UpstreamClient,
  count: number,
  issuedAt: Date,
): Promise<{ id: string; token: string }[]> {
  const suffix = randomUUID().slice(0, 8);
  const [branch] = await db.insert(branches).values({ code: `W${suffix}`, name: `Watcher test ${suffix}` }).returning();
  const userId = randomUUID();
  await db.insert(authUsers).values({ id: userId, name: "Test Teller", email: `${userId}@staff.invalid`, username: `t${suffix}` });
  const seeded: { id: string; token: string }[] = [];
  for (let index = 0; index < count; index += 1) {
    const request = { idNumber: "GHA-123456789-0", referenceId: `REF${index}` };
    // A keep-alive socket the sandbox closed meanwhile can fail a POST before it is sent; the
    // client rightly never repeats a POST, so the seeding does, once.
    const { token } = await upstream.initiateFingerprintToken(request).catch(() => upstream.initiateFingerprintToken(request));
    const id = randomUUID();
    await db.insert(tokenRequests).values({
      id,
      idempotencyKey: randomUUID(),
      requestFingerprint: `fp-${id}`,
      kind: "fingerprint",
      idType: "GHANA_CARD",
      issuedByUserId: userId,
      branchId: branch!.id,
      referenceMasked: `REF${index}`,
      referenceEncrypted: "not-read-by-the-watcher",
      idNumberEncrypted: "not-read-by-the-watcher",
      idNumberIndex: `index-${id}`,
      idNumberLast4: "7890",
      outcome: "issued",
      settledAt: issuedAt,
      token,
      issuedAt,
      expiresAt: new Date(issuedAt.getTime() + 15 * 60_000),
      nextPollAt: issuedAt,
    });
    seeded.push({ id, token });
  }
  return seeded;
}
