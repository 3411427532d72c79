import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * Forced password change at next sign-in (ADR 0012) through better-auth's real sign-in handler,
 * our session resolution and the use case, on a fresh embedded database: which accounts get a
 * temporary password, what refuses them until it is replaced, and what replacing it does.
 */

// Before any app module reads the settings (lib/logger reads them at import).
await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("password-change");
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { auditEvents, authSessions, staffProfiles } = await import("@/lib/db/schema");
const { getAuth } = await import("@/lib/auth/server");
const { authenticate, resolveSession } = await import("@/lib/auth/session");
const { appUrl } = await import("@/lib/env");
const staffService = await import("./accounts");
const roleApprovals = await import("./role-approvals");
const { replaceTemporaryPassword } = await import("./password-change");
const { seedDemoData } = await import("./seed");
const { demoAccounts } = await import("./demo-accounts");

const NEW_PASSWORD = "a phrase of my own";
let branchId: string;
let adminActor: { userId: string; username: string };

async function signIn(username: string, password: string): Promise<{ status: number; cookie?: string }> {
  const auth = await getAuth();
  const response = await auth.handler(
    new Request(`${appUrl()}/api/auth/sign-in/username`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: appUrl() },
      body: JSON.stringify({ username, password }),
    }),
  );
  const cookie = /(veridesk\.session_token=[^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1];
  return { status: response.status, cookie };
}

const headersWith = (cookie: string | undefined) => new Headers(cookie ? { cookie } : {});

async function staffOf(cookie: string | undefined) {
  const { staff } = await resolveSession(headersWith(cookie), { countsAsActivity: true });
  if (!staff) throw new Error("no session");
  return staff;
}

/** An account created the way the admin page creates one: with a generated temporary password. */
async function newAccountFromAdmin(username: string) {
  // A teller is a grant of customer data: proposed by one administrator, approved by a second (ADR 0020).
  const proposal = await roleApprovals.proposeOrCreateStaff(await getDb(), adminActor, { username, name: `Test ${username}`, role: "teller", branchId });
  if (proposal.status !== "pending") throw new Error("a teller was created without a second administrator");
  const second = await staffService.findStaffByUsername(await getDb(), "admin.second");
  const { member, temporaryPassword } = await roleApprovals.approveRoleApproval(await getDb(), { userId: second!.userId, username: second!.username }, proposal.approvalId);
  if (!temporaryPassword) throw new Error("no temporary password");
  return { member, temporaryPassword };
}

async function profileFlag(userId: string): Promise<boolean | undefined> {
  const db = await getDb();
  const [profile] = await db.select({ flag: staffProfiles.mustChangePassword }).from(staffProfiles).where(eq(staffProfiles.userId, userId));
  return profile?.flag;
}

beforeAll(async () => {
  await seedDemoData(await getDb(), { onlyIfEmpty: true });
  const admin = await staffService.findStaffByUsername(await getDb(), "admin");
  if (!admin) throw new Error("seed made no admin");
  adminActor = { userId: admin.userId, username: admin.username };
  branchId = admin.branch.id;
}, 120_000);

afterAll(async () => {
  await closeDb();
  removeScratchProcessDatabase();
});

describe("who holds a temporary password", () => {
  it("not the seeded demo accounts, nor an account created with a password its owner chose (staff:create)", async () => {
    for (const account of demoAccounts) {
      const member = await staffService.findStaffByUsername(await getDb(), account.username);
      expect(member?.mustChangePassword, account.username).toBe(false);
    }
    const { member, temporaryPassword } = await staffService.createStaffAccount(
      await getDb(),
      { system: "staff:create" },
      { username: "first.admin", name: "First Admin", role: "admin", branchId, password: "chosen-by-the-operator" },
    );
    expect(temporaryPassword).toBeNull();
    expect(member.mustChangePassword).toBe(false);
    const { cookie } = await signIn("first.admin", "chosen-by-the-operator");
    expect((await staffOf(cookie)).mustChangePassword).toBe(false);
  });

  it("an account an administrator created, and one whose password an administrator reset", async () => {
    const { member } = await newAccountFromAdmin("temp.created");
    expect(member.mustChangePassword).toBe(true);
    expect(await profileFlag(member.userId)).toBe(true);

    const teller = await staffService.findStaffByUsername(await getDb(), "teller.kumasi");
    const reset = await staffService.resetStaffPassword(await getDb(), adminActor, teller!.userId);
    expect(reset.member.mustChangePassword).toBe(true);
    expect(await profileFlag(teller!.userId)).toBe(true);
    const { cookie } = await signIn("teller.kumasi", reset.temporaryPassword);
    expect((await staffOf(cookie)).mustChangePassword).toBe(true);
  });
});

describe("while the temporary password is held", () => {
  it("signs in, but route handlers and actions are refused with PASSWORD_CHANGE_REQUIRED whatever the role", async () => {
    const { temporaryPassword } = await newAccountFromAdmin("temp.refused");
    const { status, cookie } = await signIn("temp.refused", temporaryPassword);
    expect(status).toBe(200);
    await expect(authenticate(headersWith(cookie), { countsAsActivity: true, permission: "tokens.issue" })).rejects.toMatchObject({
      code: "PASSWORD_CHANGE_REQUIRED",
      httpStatus: 403,
    });
    await expect(authenticate(headersWith(cookie), { countsAsActivity: false, permission: null })).rejects.toMatchObject({
      code: "PASSWORD_CHANGE_REQUIRED",
    });
  });
});

describe("replacing the temporary password", () => {
  it("refuses a wrong temporary password on its field and changes nothing", async () => {
    const { member, temporaryPassword } = await newAccountFromAdmin("temp.wrong");
    const { cookie } = await signIn("temp.wrong", temporaryPassword);
    const staff = await staffOf(cookie);
    await expect(
      replaceTemporaryPassword(await getDb(), staff, { currentPassword: "not-the-temporary-one", newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, headersWith(cookie)),
    ).rejects.toMatchObject({ code: "VALIDATION", fieldErrors: { currentPassword: [expect.stringMatching(/not the temporary password/)] } });
    expect(await profileFlag(member.userId)).toBe(true);
    expect((await signIn("temp.wrong", temporaryPassword)).status).toBe(200);
    expect((await signIn("temp.wrong", NEW_PASSWORD)).status).toBe(401);
  });

  it("sets the new password, clears the flag, ends every other session and audits the change", async () => {
    const { member, temporaryPassword } = await newAccountFromAdmin("temp.changed");
    const other = await signIn("temp.changed", temporaryPassword);
    const { cookie } = await signIn("temp.changed", temporaryPassword);
    const staff = await staffOf(cookie);

    await replaceTemporaryPassword(await getDb(), staff, { currentPassword: temporaryPassword, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, headersWith(cookie), "req-change");

    expect(await profileFlag(member.userId)).toBe(false);
    // better-auth replaced every session with one fresh session, whose cookie went to the action's answer.
    expect((await resolveSession(headersWith(other.cookie), { countsAsActivity: true })).staff).toBeNull();
    expect((await resolveSession(headersWith(cookie), { countsAsActivity: true })).staff).toBeNull();
    const db = await getDb();
    expect(await db.select().from(authSessions).where(eq(authSessions.userId, member.userId))).toHaveLength(1);

    expect((await signIn("temp.changed", temporaryPassword)).status).toBe(401);
    const signedIn = await signIn("temp.changed", NEW_PASSWORD);
    expect(signedIn.status).toBe(200);
    const afterwards = await staffOf(signedIn.cookie);
    expect(afterwards.mustChangePassword).toBe(false);
    await expect(authenticate(headersWith(signedIn.cookie), { countsAsActivity: true, permission: "tokens.issue" })).resolves.toMatchObject({
      username: "temp.changed",
    });

    const events = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.password_changed"), eq(auditEvents.subjectId, member.userId)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorUserId: member.userId,
      actorLabel: "temp.changed",
      branchId,
      requestId: "req-change",
      details: { reason: "temporary_password", endedOtherSessions: 1 },
    });
  });

  it("is refused once the password is the staff member's own", async () => {
    const { cookie } = await signIn("teller.accra", "veridesk-demo");
    const staff = await staffOf(cookie);
    await expect(
      replaceTemporaryPassword(await getDb(), staff, { currentPassword: "veridesk-demo", newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, headersWith(cookie)),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await signIn("teller.accra", "veridesk-demo")).status).toBe(200);
  });
});
