import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * Sign-in, lock-out and session rules through better-auth's real HTTP handler and our session
 * resolution, on a fresh embedded database: what the browser suite cannot wait for (idle and
 * absolute limits) is reached here by moving the session's times.
 */

// Before any app module reads the settings (lib/logger reads them at import).
await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("auth-flow", { SESSION_IDLE_MINUTES: "30", SESSION_MAX_HOURS: "12" });
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { auditEvents, authSessions, staffProfiles } = await import("@/lib/db/schema");
const { getAuth } = await import("./server");
const { resolveSession } = await import("./session");
const { LOCKED_MESSAGE } = await import("./lockout");
const staffService = await import("@/lib/staff/accounts");
const staffBranches = await import("@/lib/staff/branches");
const { appUrl } = await import("@/lib/env");

const PASSWORD = "correct-horse-battery";
let branchIds: { acc: string; kum: string };
let adminActor: { userId: string; username: string };

async function signIn(username: string, password: string): Promise<{ status: number; code?: string; message?: string; cookie?: string }> {
  const auth = await getAuth();
  const response = await auth.handler(
    new Request(`${appUrl()}/api/auth/sign-in/username`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: appUrl() },
      body: JSON.stringify({ username, password }),
    }),
  );
  const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  const setCookie = response.headers.get("set-cookie") ?? "";
  const cookie = /(veridesk\.session_token=[^;]+)/.exec(setCookie)?.[1];
  return { status: response.status, code: body.code, message: body.message, cookie };
}

const headersWith = (cookie: string | undefined) => new Headers(cookie ? { cookie } : {});

async function newAccount(username: string, role: "teller" | "supervisor" | "head_office_supervisor" | "admin" = "teller", branch: "acc" | "kum" = "acc") {
  const { member } = await staffService.createStaffAccount(
    await getDb(),
    { system: "test" },
    { username, name: `Test ${username}`, role, branchId: branchIds[branch], password: PASSWORD },
  );
  return member;
}

async function auditOf(action: string, label: string) {
  const db = await getDb();
  return db.select().from(auditEvents).where(and(eq(auditEvents.action, action), eq(auditEvents.actorLabel, label)));
}

beforeAll(async () => {
  const acc = await staffBranches.createBranch(await getDb(), { system: "test" }, { code: "ACC", name: "Accra – Head Office" });
  const kum = await staffBranches.createBranch(await getDb(), { system: "test" }, { code: "KUM", name: "Kumasi – Adum" });
  branchIds = { acc: acc.id, kum: kum.id };
  const admin = await newAccount("flow.admin", "admin");
  adminActor = { userId: admin.userId, username: admin.username };
}, 120_000);

afterAll(async () => {
  await closeDb();
  removeScratchProcessDatabase();
});

describe("signing in", () => {
  it("opens a session that resolves to the staff member with role and branch, and audits it", async () => {
    await newAccount("flow.teller", "teller", "kum");
    const result = await signIn("Flow.Teller", PASSWORD);
    expect(result.status).toBe(200);
    expect(result.cookie).toBeDefined();
    const { staff } = await resolveSession(headersWith(result.cookie), { countsAsActivity: true });
    expect(staff).toMatchObject({ username: "flow.teller", role: "teller", branch: { code: "KUM" } });
    expect(staff?.permissions).toContain("tokens.issue");
    expect(await auditOf("auth.sign_in", "flow.teller")).toHaveLength(1);
  });

  it("answers the same for an unknown username and a wrong password", async () => {
    await newAccount("flow.same");
    const wrongPassword = await signIn("flow.same", "not-the-password");
    const unknownUser = await signIn("flow.nobody", "not-the-password");
    expect(wrongPassword).toEqual(unknownUser);
    expect(wrongPassword).toMatchObject({ status: 401, code: "INVALID_USERNAME_OR_PASSWORD" });
  });

  it("refuses a forged cookie", async () => {
    const { staff } = await resolveSession(headersWith("veridesk.session_token=forged.abc"), { countsAsActivity: true });
    expect(staff).toBeNull();
  });
});

describe("lock-out", () => {
  it("locks after 5 failures, refuses even the right password, and an admin's reset lifts it", async () => {
    const member = await newAccount("flow.locked");
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt++) answers.push(await signIn("flow.locked", `wrong-${attempt}-password`));
    expect(answers.slice(0, 4).map((answer) => answer.code)).toEqual(Array(4).fill("INVALID_USERNAME_OR_PASSWORD"));
    expect(answers[4]).toMatchObject({ status: 401, code: "ACCOUNT_LOCKED", message: LOCKED_MESSAGE });
    expect(await signIn("flow.locked", PASSWORD)).toMatchObject({ status: 429, code: "ACCOUNT_LOCKED" });

    const lockouts = await auditOf("auth.locked_out", "flow.locked");
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]?.branchId).toBe(branchIds.acc);

    const { temporaryPassword } = await staffService.resetStaffPassword(await getDb(), adminActor, member.userId);
    expect(await signIn("flow.locked", PASSWORD)).toMatchObject({ status: 401 });
    expect(await signIn("flow.locked", temporaryPassword)).toMatchObject({ status: 200 });
  });
});

describe("session limits", () => {
  async function signedInSession(username: string) {
    await newAccount(username);
    const { cookie } = await signIn(username, PASSWORD);
    const { staff } = await resolveSession(headersWith(cookie), { countsAsActivity: true });
    if (!staff) throw new Error("no session");
    return { cookie, sessionId: staff.session.id, userId: staff.userId };
  }

  it("ends a session idle for longer than SESSION_IDLE_MINUTES, deleting it", async () => {
    const { cookie, sessionId } = await signedInSession("flow.idle");
    const db = await getDb();
    await db.update(authSessions).set({ lastActiveAt: new Date(Date.now() - 31 * 60_000) }).where(eq(authSessions.id, sessionId));
    expect(await resolveSession(headersWith(cookie), { countsAsActivity: true })).toEqual({ staff: null, endedBecause: "idle" });
    expect(await db.select().from(authSessions).where(eq(authSessions.id, sessionId))).toHaveLength(0);
    expect(await resolveSession(headersWith(cookie), { countsAsActivity: true })).toEqual({ staff: null });
  });

  it("keeps an active session: requests that count as activity move the idle deadline, polling does not", async () => {
    const { cookie, sessionId } = await signedInSession("flow.active");
    const db = await getDb();
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000);
    await db.update(authSessions).set({ lastActiveAt: twentyMinutesAgo }).where(eq(authSessions.id, sessionId));

    const polled = await resolveSession(headersWith(cookie), { countsAsActivity: false });
    expect(polled.staff?.session.idleExpiresAt.getTime()).toBe(twentyMinutesAgo.getTime() + 30 * 60_000);
    const [afterPoll] = await db.select().from(authSessions).where(eq(authSessions.id, sessionId));
    expect(afterPoll?.lastActiveAt.getTime()).toBe(twentyMinutesAgo.getTime());

    const used = await resolveSession(headersWith(cookie), { countsAsActivity: true });
    expect(used.staff!.session.idleExpiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    const [afterUse] = await db.select().from(authSessions).where(eq(authSessions.id, sessionId));
    expect(afterUse!.lastActiveAt.getTime()).toBeGreaterThan(twentyMinutesAgo.getTime());
  });

  it("ends a session older than SESSION_MAX_HOURS however active", async () => {
    const { cookie, sessionId } = await signedInSession("flow.absolute");
    const db = await getDb();
    await db.update(authSessions).set({ createdAt: new Date(Date.now() - 12 * 3_600_000 - 1000), lastActiveAt: new Date() }).where(eq(authSessions.id, sessionId));
    expect(await resolveSession(headersWith(cookie), { countsAsActivity: true })).toEqual({ staff: null, endedBecause: "absolute" });
    const ended = await db.select().from(auditEvents).where(and(eq(auditEvents.action, "auth.session_ended"), eq(auditEvents.subjectId, sessionId)));
    expect(ended[0]?.details).toEqual({ reason: "absolute" });
  });
});

describe("disabled accounts", () => {
  it("lose every session at once and are refused at sign-in after the password check", async () => {
    const member = await newAccount("flow.leaver");
    const first = await signIn("flow.leaver", PASSWORD);
    const second = await signIn("flow.leaver", PASSWORD);
    await staffService.setStaffDisabled(await getDb(), adminActor, member.userId, true);
    for (const { cookie } of [first, second]) {
      expect((await resolveSession(headersWith(cookie), { countsAsActivity: true })).staff).toBeNull();
    }
    expect(await signIn("flow.leaver", PASSWORD)).toMatchObject({ status: 403, code: "ACCOUNT_DISABLED" });
    // A wrong password still reads as a wrong password: being disabled is only told to the holder.
    expect(await signIn("flow.leaver", "not-the-password")).toMatchObject({ status: 401, code: "INVALID_USERNAME_OR_PASSWORD" });

    await staffService.setStaffDisabled(await getDb(), adminActor, member.userId, false);
    expect(await signIn("flow.leaver", PASSWORD)).toMatchObject({ status: 200 });
  });
});

describe("the poll routes' one-statement session check (ADR 0026: bound 0 s, nothing cached)", () => {
  const polling = { countsAsActivity: false } as const;

  it("refuses the very next poll after a sign-out", async () => {
    await newAccount("flow.poll.out");
    const { cookie } = await signIn("flow.poll.out", PASSWORD);
    expect((await resolveSession(headersWith(cookie), polling)).staff?.username).toBe("flow.poll.out");
    const auth = await getAuth();
    await auth.api.signOut({ headers: headersWith(cookie) });
    expect(await resolveSession(headersWith(cookie), polling)).toEqual({ staff: null });
  });

  it("refuses the very next poll of an account disabled in the database, even before its sessions are deleted", async () => {
    const member = await newAccount("flow.poll.disabled");
    const { cookie } = await signIn("flow.poll.disabled", PASSWORD);
    expect((await resolveSession(headersWith(cookie), polling)).staff).not.toBeNull();
    const db = await getDb();
    await db.update(staffProfiles).set({ disabledAt: new Date() }).where(eq(staffProfiles.userId, member.userId));
    expect(await resolveSession(headersWith(cookie), polling)).toEqual({ staff: null, endedBecause: "disabled" });
  });

  it("refuses the very next poll once the idle limit has passed, though polling never counted as activity", async () => {
    await newAccount("flow.poll.idle");
    const { cookie } = await signIn("flow.poll.idle", PASSWORD);
    const first = await resolveSession(headersWith(cookie), polling);
    const db = await getDb();
    await db.update(authSessions).set({ lastActiveAt: new Date(Date.now() - 30 * 60_000 - 1_000) }).where(eq(authSessions.id, first.staff!.session.id));
    expect(await resolveSession(headersWith(cookie), polling)).toEqual({ staff: null, endedBecause: "idle" });
  });

  it("refuses a real session token whose signature was altered", async () => {
    await newAccount("flow.poll.tampered");
    const { cookie } = await signIn("flow.poll.tampered", PASSWORD);
    const [name, value] = cookie!.split("=") as [string, string];
    const decoded = decodeURIComponent(value);
    const tampered = `${decoded.slice(0, decoded.lastIndexOf(".") + 1)}${"A".repeat(43)}=`;
    expect((await resolveSession(headersWith(`${name}=${encodeURIComponent(tampered)}`), polling)).staff).toBeNull();
  });
});

describe("staff administration", () => {
  it("records role and branch changes with before and after", async () => {
    // Head office to one branch's supervisor narrows the access: no second administrator needed (ADR 0020).
    const member = await newAccount("flow.promoted", "head_office_supervisor", "acc");
    await staffService.updateStaffAccount(await getDb(), adminActor, { userId: member.userId, name: member.name, role: "supervisor", branchId: branchIds.kum }, "req-42");
    const db = await getDb();
    const [event] = await db.select().from(auditEvents).where(and(eq(auditEvents.action, "staff.update"), eq(auditEvents.subjectId, member.userId)));
    expect(event).toMatchObject({
      actorUserId: adminActor.userId,
      actorLabel: "flow.admin",
      branchId: branchIds.kum,
      requestId: "req-42",
      details: {
        username: "flow.promoted",
        before: { name: member.name, role: "head_office_supervisor", branch: "ACC" },
        after: { name: member.name, role: "supervisor", branch: "KUM" },
      },
    });
    const [profile] = await db.select().from(staffProfiles).where(eq(staffProfiles.userId, member.userId));
    expect(profile).toMatchObject({ role: "supervisor", branchId: branchIds.kum });
  });

  it("keeps at least one active administrator and refuses self-disabling", async () => {
    await expect(
      staffService.updateStaffAccount(await getDb(), adminActor, { userId: adminActor.userId, name: "Flow Admin", role: "teller", branchId: branchIds.acc }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(staffService.setStaffDisabled(await getDb(), adminActor, adminActor.userId, true)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(staffService.setStaffDisabled(await getDb(), { system: "test" }, adminActor.userId, true)).rejects.toMatchObject({
      code: "CONFLICT",
      userMessage: "Veridesk needs at least one active administrator.",
    });
  });

  it("refuses a taken username on its field, whatever its case", async () => {
    await expect(newAccount("FLOW.TELLER")).rejects.toMatchObject({ code: "CONFLICT", fieldErrors: { username: [expect.any(String)] } });
  });
});
