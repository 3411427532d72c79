/**
 * `npm run bench:http` only: gives the benchmark's app database today's tokens (ADR 0026) — `count`
 * fingerprint tokens of teller.accra's branch issued in the last hours, each with its two events,
 * and prints the id of one. Runs before `next start` (an embedded database has one owner at a time).
 *
 *   BENCH_TOKENS=136 tsx --conditions=react-server bench/http-seed.ts
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { authUsers, staffProfiles, tokenEvents, tokenRequests } from "@/lib/db/schema";
import { computeIdNumberIndex, computeRequestFingerprint, encryptField, lastFourOf } from "@/lib/pii";

const count = Number(process.env.BENCH_TOKENS ?? 136);

try {
  const db = await getDb();
  const [owner] = await db
    .select({ userId: authUsers.id, branchId: staffProfiles.branchId })
    .from(authUsers)
    .innerJoin(staffProfiles, eq(staffProfiles.userId, authUsers.id))
    .where(eq(authUsers.username, "teller.accra"));
  if (!owner) throw new Error("teller.accra is missing: run the demo seed first");
  const now = Date.now();
  const startOfDay = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  let firstId = "";
  for (let index = 0; index < count; index += 1) {
    const id = randomUUID();
    firstId ||= id;
    // Spread over today so far; the newest a minute ago (still waiting for its customer).
    const issuedAt = new Date(Math.max(startOfDay + 1_000, now - 60_000 - index * 60_000));
    const idNumber = `GHA-${String(700_000_000 + index)}-1`;
    await db.insert(tokenRequests).values({
      id,
      idempotencyKey: randomUUID(),
      requestFingerprint: computeRequestFingerprint({ bench: id }),
      kind: "fingerprint",
      idType: "GHANA_CARD",
      issuedByUserId: owner.userId,
      branchId: owner.branchId,
      createdAt: new Date(issuedAt.getTime() - 800),
      referenceMasked: `BENCH${index}`,
      purpose: "Account opening",
      idNumberEncrypted: encryptField(idNumber, `token_requests.id_number:${id}`),
      idNumberIndex: computeIdNumberIndex(idNumber),
      idNumberLast4: lastFourOf(idNumber),
      outcome: "issued",
      settledAt: issuedAt,
      token: `B${String(index).padStart(5, "0")}X`,
      issuedAt,
      expiresAt: new Date(issuedAt.getTime() + 15 * 60_000),
      // Far ahead: the watcher leaves them alone, so the figures measure the routes only.
      nextPollAt: new Date(now + 24 * 3600_000),
    });
    await db.insert(tokenEvents).values([
      { tokenRequestId: id, type: "issue.requested", at: new Date(issuedAt.getTime() - 800), details: {} },
      { tokenRequestId: id, type: "issue.issued", at: issuedAt, details: {} },
    ]);
  }
  console.log(`BENCH_TOKEN_ID=${firstId}`);
} finally {
  await closeDb();
}
