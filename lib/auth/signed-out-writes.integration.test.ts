import { and, count, eq, isNull, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * Signed-out failed sign-ins cannot grow the tables without bound: a burst
 * of random usernames through better-auth's real handler writes no throttle row and at most the
 * per-minute audit budget (plus one summary); an unknown username still locks like a real one,
 * so the answers never tell whether an account exists; a real account's failures are all audited.
 */

await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("signed-out-writes", { TRUSTED_PROXY_HOPS: "1" });
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { auditEvents, signInThrottles } = await import("@/lib/db/schema");
const { handleAuthRequest } = await import("./server");
const staffService = await import("@/lib/staff/accounts");
const staffBranches = await import("@/lib/staff/branches");
const { appUrl } = await import("@/lib/env");

async function signIn(username: string, password: string, ip = "198.51.100.7") {
  const response = await handleAuthRequest(
    new Request(`${appUrl()}/api/auth/sign-in/username`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: appUrl(), "x-forwarded-for": ip },
      body: JSON.stringify({ username, password }),
    }),
  );
  const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  return { status: response.status, code: body.code, message: body.message };
}

async function countRows(table: typeof signInThrottles | typeof auditEvents, where?: ReturnType<typeof and>) {
  const db = await getDb();
  const [row] = await db.select({ total: count() }).from(table).where(where);
  return row?.total ?? 0;
}

afterAll(async () => {
  await closeDb();
  removeScratchProcessDatabase();
});

describe("signed-out failed sign-ins", () => {
  it("a burst of 90 random usernames (over the budget of 60) writes no throttle row and at most 60 audit events", async () => {
    const throttlesBefore = await countRows(signInThrottles);
    const failedBefore = await countRows(auditEvents, and(eq(auditEvents.action, "auth.sign_in_failed"), isNull(auditEvents.actorUserId)));
    for (let batch = 0; batch < 3; batch += 1) {
      await Promise.all(Array.from({ length: 30 }, (_, index) => signIn(`random.${batch}.${index}.${Math.random().toString(36).slice(2, 8)}`, "whatever-password", `198.51.100.${batch * 30 + index}`)));
    }
    expect(await countRows(signInThrottles)).toBe(throttlesBefore);
    const failedAfter = await countRows(auditEvents, and(eq(auditEvents.action, "auth.sign_in_failed"), isNull(auditEvents.actorUserId)));
    expect(failedAfter - failedBefore).toBeLessThanOrEqual(60);
    expect(failedAfter - failedBefore).toBeGreaterThan(0);
    // Too long or not username-shaped: refused before anything is written (the earlier cap).
    const tooLong = await signIn("x".repeat(5000), "whatever-password");
    expect(tooLong.status).toBeGreaterThanOrEqual(400);
    expect(tooLong.status).toBeLessThan(500);
    expect(await countRows(signInThrottles)).toBe(throttlesBefore);
  }, 120_000);

  it("an unknown username locks after 5 guesses exactly like an account does, and the account's failures are all audited", async () => {
    const branch = await staffBranches.createBranch(await getDb(), { system: "test" }, { code: "SOW", name: "Signed-out writes" });
    await staffService.createStaffAccount(await getDb(), { system: "test" }, { username: "real.person", name: "Real Person", role: "teller", branchId: branch.id, password: "correct-horse-battery" });
    const answersOf = async (username: string) => {
      const answers = [];
      for (let attempt = 0; attempt < 7; attempt += 1) answers.push(await signIn(username, `wrong-${attempt}`, "198.51.100.250"));
      return answers.map((answer) => `${answer.status} ${answer.code ?? ""}`);
    };
    const real = await answersOf("real.person");
    const ghost = await answersOf("no.such.person");
    expect(ghost).toEqual(real);
    expect(real.at(-1)).toContain("ACCOUNT_LOCKED");
    const db = await getDb();
    const realFailed = await db.select().from(auditEvents).where(and(eq(auditEvents.action, "auth.sign_in_failed"), eq(auditEvents.actorLabel, "real.person"), sql`${auditEvents.details}->>'reason' = 'invalid_credentials'`));
    expect(realFailed).toHaveLength(5);
    expect(await countRows(signInThrottles, and(eq(signInThrottles.username, "no.such.person")))).toBe(0);
    expect(await countRows(signInThrottles, and(eq(signInThrottles.username, "real.person")))).toBe(1);
  });
});
