import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, auditEvents, authUsers, staffProfiles } from "@/lib/db/schema";
import type { Database } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { aBranch } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, type ScratchDatabase } from "@/test/kit/database";
import { hashApiKey } from "./key-format";
import { approveApiKey, authenticateApiKey, decideAgainstApiKey, proposeApiKey, proposeApiKeyRoll, revokeApiKey, type ApiKeyInput } from "./keys";

/**
 * A key's life on a real database: a proposal is nothing until a second administrator approves
 * it (the author cannot, two racing approvals make one key), the integration's user row cannot
 * sign in, a roll keeps the old key for the overlap only, a revoke ends it at once; each audited.
 */

const first = { userId: "admin-1", username: "admin.first" };
const second = { userId: "admin-2", username: "admin.second" };
const third = { userId: "admin-3", username: "admin.third" };
const refuseTestKeys = { refuseTestKeys: false };

forEachDatabase("API keys", (driver) => {
  let scratch: ScratchDatabase;
  let db: Database;
  let input: ApiKeyInput;

  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "api-keys" });
    db = scratch.opened.db;
    const branch = await aBranch(db, { code: "ACC", name: "Accra – Head Office" });
    input = { name: "Loan system", environment: "live", scopes: ["tokens:read"], branchIds: [branch.id], expiresAt: new Date(Date.now() + 86_400_000) };
  }, 120_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  const code = async (action: Promise<unknown>) => {
    try {
      await action;
      return "done";
    } catch (error) {
      return error instanceof AppError ? error.code : String(error);
    }
  };

  it("a proposal makes no key; its author cannot approve it; two racing approvals make one key, shown once", async () => {
    const proposal = await proposeApiKey(db, first, input);
    expect(proposal.status).toBe("pending");
    expect(proposal.keyHash).toBeNull();
    expect(await code(approveApiKey(db, first, proposal.id))).toBe("FORBIDDEN");

    const results = await Promise.allSettled([approveApiKey(db, second, proposal.id), approveApiKey(db, third, proposal.id)]);
    const made = results.filter((result) => result.status === "fulfilled");
    expect(made).toHaveLength(1);
    const { key } = (made[0] as PromiseFulfilledResult<{ key: string }>).value;
    const caller = await authenticateApiKey(db, `Bearer ${key}`, new Date(), refuseTestKeys);
    expect(caller).toMatchObject({ name: "Loan system", scopes: ["tokens:read"] });

    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, proposal.id));
    expect(row?.keyHash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);
    // The integration's user row has no staff profile (and no password): it cannot sign in.
    const [user] = await db.select().from(authUsers).where(eq(authUsers.id, caller.serviceUserId));
    expect(user?.name).toBe("API: Loan system");
    expect(await db.select().from(staffProfiles).where(eq(staffProfiles.userId, caller.serviceUserId))).toEqual([]);

    const actions = await db.select({ action: auditEvents.action, actor: auditEvents.actorLabel }).from(auditEvents).where(sql`${auditEvents.subjectId} = ${proposal.id}`);
    expect(actions.map((event) => event.action).sort()).toEqual(["api_key.create", "api_key.requested"]);
  });

  it("reject by another administrator, cancel by the author only", async () => {
    const rejected = await proposeApiKey(db, first, { ...input, name: "Rejected one" });
    expect(await code(decideAgainstApiKey(db, first, rejected.id, "rejected"))).toBe("CONFLICT");
    expect(await code(decideAgainstApiKey(db, second, rejected.id, "rejected"))).toBe("done");
    expect(await code(approveApiKey(db, second, rejected.id))).toBe("CONFLICT");
    const cancelled = await proposeApiKey(db, first, { ...input, name: "Cancelled one" });
    expect(await code(decideAgainstApiKey(db, second, cancelled.id, "cancelled"))).toBe("CONFLICT");
    expect(await code(decideAgainstApiKey(db, first, cancelled.id, "cancelled"))).toBe("done");
  });

  it("a roll: both keys work during the overlap, the old one not after it; a revoke ends a key at once", async () => {
    const proposal = await proposeApiKey(db, first, { ...input, name: "Rolled" });
    const { key: oldKey } = await approveApiKey(db, second, proposal.id);
    const now = new Date();
    const rollProposal = await proposeApiKeyRoll(db, first, proposal.id, undefined, now);
    const { key: newKey, row } = await approveApiKey(db, second, rollProposal.id, undefined, now, { rollOverlapMs: 60_000 });
    expect(row.rolledFromId).toBe(proposal.id);
    const oldCaller = await authenticateApiKey(db, `Bearer ${oldKey}`, now, refuseTestKeys);
    const newCaller = await authenticateApiKey(db, `Bearer ${newKey}`, now, refuseTestKeys);
    expect(newCaller.serviceUserId).toBe(oldCaller.serviceUserId);
    expect(await code(authenticateApiKey(db, `Bearer ${oldKey}`, new Date(now.getTime() + 61_000), refuseTestKeys))).toBe("UNAUTHENTICATED");
    expect(await code(authenticateApiKey(db, `Bearer ${newKey}`, new Date(now.getTime() + 61_000), refuseTestKeys))).toBe("done");

    await revokeApiKey(db, first, row.id);
    expect(await code(authenticateApiKey(db, `Bearer ${newKey}`, new Date(), refuseTestKeys))).toBe("UNAUTHENTICATED");
    expect(await code(revokeApiKey(db, first, row.id))).toBe("CONFLICT");
  });

  it("a roll is two people: one proposes, a second approves and alone sees the new key; the proposer cannot approve it", async () => {
    const made = await approveApiKey(db, second, (await proposeApiKey(db, first, { ...input, name: "Roll two people" })).id);
    const roll = await proposeApiKeyRoll(db, first, made.row.id);
    // Nothing works yet: the proposal has no key.
    expect(roll).toMatchObject({ status: "pending", keyHash: null, rolledFromId: made.row.id });
    expect(await code(approveApiKey(db, first, roll.id))).toBe("FORBIDDEN");
    const { key, row } = await approveApiKey(db, second, roll.id);
    expect(row.expiresAt.getTime()).toBe(made.row.expiresAt.getTime());
    expect((await authenticateApiKey(db, `Bearer ${key}`, new Date(), refuseTestKeys)).serviceUserId).toBe(made.row.serviceUserId);
    const actions = await db.select({ action: auditEvents.action }).from(auditEvents).where(sql`${auditEvents.subjectId} = ${roll.id}`);
    expect(actions.map((event) => event.action).sort()).toEqual(["api_key.roll", "api_key.roll_requested"]);
  });

  it("never rolls an expired or revoked key, nor one that expired or was revoked while its roll waited", async () => {
    const now = new Date();
    const expiring = await approveApiKey(db, second, (await proposeApiKey(db, first, { ...input, name: "Expiring", expiresAt: new Date(now.getTime() + 60_000) })).id);
    const later = new Date(now.getTime() + 120_000);
    expect(await code(proposeApiKeyRoll(db, first, expiring.row.id, undefined, later))).toBe("CONFLICT");
    const waiting = await proposeApiKeyRoll(db, first, expiring.row.id, undefined, now);
    expect(await code(approveApiKey(db, second, waiting.id, undefined, later))).toBe("CONFLICT");

    const revoked = await approveApiKey(db, second, (await proposeApiKey(db, first, { ...input, name: "Revoked" })).id);
    const waitingOnRevoked = await proposeApiKeyRoll(db, first, revoked.row.id);
    await revokeApiKey(db, second, revoked.row.id);
    expect(await code(proposeApiKeyRoll(db, first, revoked.row.id))).toBe("CONFLICT");
    expect(await code(approveApiKey(db, second, waitingOnRevoked.id))).toBe("CONFLICT");
    // A pending key (never approved) is not rolled either.
    expect(await code(proposeApiKeyRoll(db, first, (await proposeApiKey(db, first, { ...input, name: "Never approved" })).id))).toBe("CONFLICT");
  });

  it("one successor per key: a parallel burst of roll proposals leaves one, a burst of approvals makes one key, and a rolled key is not rolled again", async () => {
    const made = await approveApiKey(db, second, (await proposeApiKey(db, first, { ...input, name: "Burst" })).id);
    const proposals = await Promise.allSettled(Array.from({ length: 6 }, (_, index) => proposeApiKeyRoll(db, index % 2 ? first : second, made.row.id)));
    const proposed = proposals.filter((result) => result.status === "fulfilled");
    expect(proposed).toHaveLength(1);
    const roll = (proposed[0] as PromiseFulfilledResult<{ id: string; proposedByUserId: string }>).value;
    const approver = roll.proposedByUserId === first.userId ? second : first;
    const third = { userId: "admin-3", username: "admin.third" };
    const approvals = await Promise.allSettled([approver, third, approver, third].map((admin) => approveApiKey(db, admin, roll.id)));
    expect(approvals.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(await db.select({ id: apiKeys.id }).from(apiKeys).where(sql`${apiKeys.rolledFromId} = ${made.row.id}`)).toHaveLength(1);
    expect(await code(proposeApiKeyRoll(db, first, made.row.id))).toBe("CONFLICT");
  });

  it("a test key is refused where test keys are (production)", async () => {
    const proposal = await proposeApiKey(db, first, { ...input, name: "Sandbox client", environment: "test" });
    const { key } = await approveApiKey(db, second, proposal.id);
    expect(key.startsWith("vdk_test_")).toBe(true);
    expect(await code(authenticateApiKey(db, `Bearer ${key}`, new Date(), { refuseTestKeys: true }))).toBe("UNAUTHENTICATED");
    expect(await code(authenticateApiKey(db, `Bearer ${key}`, new Date(), refuseTestKeys))).toBe("done");
  });
});
