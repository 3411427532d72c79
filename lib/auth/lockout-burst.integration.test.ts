import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * The lock-out under a parallel burst, through better-auth's real handler, on PGlite and (when
 * TEST_DATABASE_URL is set) PostgreSQL: however many guesses arrive at once, at most 5 passwords
 * are checked per window, and a right password arriving inside the burst does not get in.
 */

await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("lockout-burst", { TRUSTED_PROXY_HOPS: "1" });
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { auditEvents } = await import("@/lib/db/schema");
const { handleAuthRequest } = await import("./server");
const staffService = await import("@/lib/staff/accounts");
const staffBranches = await import("@/lib/staff/branches");
const { appUrl } = await import("@/lib/env");
const { openScratchDatabase, queryRows } = await import("@/test/kit/database");

const PASSWORD = "correct-horse-battery";

async function signIn(username: string, password: string, ip = "203.0.113.9") {
  const response = await handleAuthRequest(
    new Request(`${appUrl()}/api/auth/sign-in/username`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: appUrl(), "x-forwarded-for": ip },
      body: JSON.stringify({ username, password }),
    }),
  );
  const body = (await response.json().catch(() => ({}))) as { code?: string };
  return { status: response.status, code: body.code };
}

async function auditCount(action: string, username: string, reason?: string): Promise<number> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.actorLabel, username), reason ? sql`${auditEvents.details}->>'reason' = ${reason}` : undefined));
  return rows.length;
}

/** The same app code on another database: the process's database and auth are rebuilt on it. */
const globals = globalThis as typeof globalThis & { verideskDatabase?: Promise<unknown>; verideskAuth?: Promise<unknown> };

async function burstScenarios(branchCode: string) {
  const branch = await staffBranches.createBranch(await getDb(), { system: "test" }, { code: branchCode, name: `Burst ${branchCode}` });
  const newAccount = async (username: string) =>
    staffService.createStaffAccount(await getDb(), { system: "test" }, { username, name: username, role: "teller", branchId: branch.id, password: PASSWORD });

  // 1. Forty wrong guesses at once: five are checked, the rest refused unchecked; one lock, one audited refusal.
  await newAccount("burst.wrong");
  const wrong = await Promise.all(Array.from({ length: 40 }, (_, index) => signIn("burst.wrong", `wrong-guess-${index}`)));
  const refused = wrong.filter((answer) => answer.code === "ACCOUNT_LOCKED");
  expect(await auditCount("auth.sign_in_failed", "burst.wrong", "invalid_credentials")).toBe(5);
  expect(refused.length).toBe(40 - 4);
  expect(await auditCount("auth.locked_out", "burst.wrong")).toBe(1);
  expect(await auditCount("auth.sign_in_failed", "burst.wrong", "locked")).toBe(1);
  expect(await signIn("burst.wrong", PASSWORD)).toMatchObject({ status: 429, code: "ACCOUNT_LOCKED" });

  // 2. Thirty wrong guesses and the right password, all at once, the right one last to arrive:
  //    its password is never checked, it does not sign in, and the lock holds.
  await newAccount("burst.right");
  const answers = await Promise.all([
    ...Array.from({ length: 30 }, (_, index) => signIn("burst.right", `wrong-guess-${index}`)),
    signIn("burst.right", PASSWORD),
  ]);
  expect(answers.at(-1)).toMatchObject({ status: 429, code: "ACCOUNT_LOCKED" });
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(0);
  expect(await auditCount("auth.sign_in", "burst.right")).toBe(0);
  expect(await auditCount("auth.sign_in_failed", "burst.right", "invalid_credentials")).toBe(5);
  expect(await signIn("burst.right", PASSWORD)).toMatchObject({ status: 429, code: "ACCOUNT_LOCKED" });

  // 3. A stranger's megabyte username writes no throttle row and no unbounded audit label.
  const long = await signIn("x".repeat(100_000), "whatever-password");
  expect(long.status).toBeGreaterThanOrEqual(400);
  expect(long.status).toBeLessThan(500);
  const [row] = await queryRows<{ longest: number }>(
    await getDb(),
    sql`SELECT coalesce(max(length(username)), 0)::int AS longest FROM sign_in_throttles`,
  );
  const longest = row?.longest ?? 0;
  expect(longest).toBeLessThanOrEqual(40);
}

afterAll(async () => {
  await closeDb();
  removeScratchProcessDatabase();
});

describe("lock-out under a parallel burst", () => {
  it("PGlite: at most 5 guesses checked, a right password inside the burst refused", async () => {
    await burstScenarios("PGL");
  });

  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  it.runIf(testDatabaseUrl)("PostgreSQL: at most 5 guesses checked, a right password inside the burst refused", async () => {
    const scratch = await openScratchDatabase({ driver: "postgres", name: "lockout" });
    const previous = globals.verideskDatabase;
    globals.verideskDatabase = Promise.resolve(scratch.opened);
    globals.verideskAuth = undefined;
    try {
      await burstScenarios("PGS");
    } finally {
      globals.verideskDatabase = previous;
      globals.verideskAuth = undefined;
      await scratch.destroy();
    }
  });
});
