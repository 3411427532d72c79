import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, auditEvents, authUsers, staffProfiles } from "@/lib/db/schema";
import type { Database } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { aBranch } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, type ScratchDatabase } from "@/test/kit/database";
import { hashApiKey } from "./key-format";
import { approveApiKey, authenticateApiKey, decideAgainstApiKey, proposeApiKey, revokeApiKey, rollApiKey, type ApiKeyInput } from "./keys";

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
    const { key: newKey, row } = await rollApiKey(db, first, proposal.id, { overlapMs: 60_000, now });
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

  it("a test key is refused where test keys are (production)", async () => {
    const proposal = await proposeApiKey(db, first, { ...input, name: "Sandbox client", environment: "test" });
    const { key } = await approveApiKey(db, second, proposal.id);
    expect(key.startsWith("vdk_test_")).toBe(true);
    expect(await code(authenticateApiKey(db, `Bearer ${key}`, new Date(), { refuseTestKeys: true }))).toBe("UNAUTHENTICATED");
    expect(await code(authenticateApiKey(db, `Bearer ${key}`, new Date(), refuseTestKeys))).toBe("done");
  });
});
