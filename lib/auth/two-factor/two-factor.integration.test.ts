import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * The second factor of a password sign-in through better-auth's real HTTP handler: the answer to
 * the password is no sign-in yet, a code is good once (better-auth alone takes it again inside
 * its window), wrong codes count towards the username's lock-out, a backup code works once.
 * The clock is fixed (only `Date`), so the codes of the steps around "now" are known.
 */

await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("two-factor", {});
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { auditEvents, authSessions, authUsers, secondFactorUsedCodes, signInThrottles } = await import("@/lib/db/schema");
const { getAuth } = await import("../server");
const { resolveSession } = await import("../session");
const staffService = await import("@/lib/staff/accounts");
const staffBranches = await import("@/lib/staff/branches");
const { appUrl } = await import("@/lib/env");
const { base32Decode, totpCode, totpStepAt } = await import("./totp");
const { confirmEnrolment, startEnrolment } = await import("./enrolment");

const PASSWORD = "correct-horse-battery";
let branchId: string;

type Answer = { status: number; body: Record<string, unknown>; sessionCookie?: string; twoFactorCookie?: string };

async function post(path: string, body: unknown, cookie?: string): Promise<Answer> {
  const auth = await getAuth();
  const response = await auth.handler(
    new Request(`${appUrl()}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: appUrl(), ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    }),
  );
  const setCookie = response.headers.get("set-cookie") ?? "";
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as Record<string, unknown>,
    sessionCookie: /(veridesk\.session_token=[^;]+)/.exec(setCookie)?.[1],
    twoFactorCookie: /(veridesk\.two_factor=[^;]+)/.exec(setCookie)?.[1],
  };
}

const signIn = (username: string, password = PASSWORD) => post("/sign-in/username", { username, password });

async function auditOf(action: string, userId: string) {
  const db = await getDb();
  return db.select().from(auditEvents).where(and(eq(auditEvents.action, action), eq(auditEvents.actorUserId, userId)));
}

async function failedCountOf(username: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select().from(signInThrottles).where(eq(signInThrottles.username, username));
  return row?.recentFailures.length ?? 0;
}

/** An admin account with a confirmed authenticator: its secret and backup codes. */
async function enrolledAccount(username: string) {
  const db = await getDb();
  const { member } = await staffService.createStaffAccount(db, { system: "test" }, { username, name: `Test ${username}`, role: "admin", branchId, password: PASSWORD });
  const { sessionCookie } = await signIn(username);
  const requestHeaders = new Headers({ cookie: sessionCookie!, origin: appUrl() });
  const { staff } = await resolveSession(requestHeaders, { countsAsActivity: false });
  expect(staff).toMatchObject({ mustEnrolSecondFactor: true, session: { signInMethod: "password" } });
  const started = await startEnrolment(db, staff!, PASSWORD, requestHeaders);
  const secret = base32Decode(started.secret);
  await confirmEnrolment(db, staff!, totpCode(secret, totpStepAt(Date.now())), requestHeaders);
  return { userId: member.userId, username, secret, backupCodes: started.backupCodes };
}

const codeAt = (secret: Uint8Array, offset: number) => totpCode(secret, totpStepAt(Date.now()) + offset);

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-27T10:00:05Z") });
  const branch = await staffBranches.createBranch(await getDb(), { system: "test" }, { code: "ACC", name: "Accra – Head Office" });
  branchId = branch.id;
}, 120_000);

afterAll(async () => {
  vi.useRealTimers();
  await closeDb();
  removeScratchProcessDatabase();
});

describe("enrolment", () => {
  it("confirming the authenticator replaces the password session by a totp one, which lifts the gate", async () => {
    const db = await getDb();
    const { createStaffAccount } = staffService;
    await createStaffAccount(db, { system: "test" }, { username: "tf.enrol", name: "Enrol", role: "admin", branchId, password: PASSWORD });
    const { sessionCookie } = await signIn("tf.enrol");
    const requestHeaders = new Headers({ cookie: sessionCookie!, origin: appUrl() });
    const { staff } = await resolveSession(requestHeaders, { countsAsActivity: false });
    const started = await startEnrolment(db, staff!, PASSWORD, requestHeaders);
    expect(started.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(started.backupCodes).toHaveLength(10);
    await confirmEnrolment(db, staff!, codeAt(base32Decode(started.secret), 0), requestHeaders);
    const [user] = await db.select().from(authUsers).where(eq(authUsers.id, staff!.userId));
    expect(user?.twoFactorEnabled).toBe(true);
    // The password session is gone; the one that replaced it was signed in with the code.
    expect(await db.select().from(authSessions).where(eq(authSessions.id, staff!.session.id))).toHaveLength(0);
    const sessions = await db.select().from(authSessions).where(eq(authSessions.userId, staff!.userId));
    expect(sessions.map((session) => session.authMethod)).toEqual(["totp"]);
    expect(await auditOf("auth.second_factor_enrolled", staff!.userId)).toHaveLength(1);
  });
});

describe("signing in with an authenticator", () => {
  it("answers the password with twoFactorRedirect: no session, no auth.sign_in, the lock-out not cleared", async () => {
    const account = await enrolledAccount("tf.redirect");
    const signInsBefore = (await auditOf("auth.sign_in", account.userId)).length;
    const answer = await signIn(account.username);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect(answer.sessionCookie).toBeUndefined();
    expect(answer.twoFactorCookie).toBeDefined();
    expect(await auditOf("auth.sign_in", account.userId)).toHaveLength(signInsBefore);
    expect(await auditOf("auth.second_factor_required", account.userId)).toHaveLength(1);
    expect(await failedCountOf(account.username)).toBe(1);

    const accepted = await post("/two-factor/verify-totp", { code: codeAt(account.secret, 1) }, answer.twoFactorCookie);
    expect(accepted.status).toBe(200);
    const { staff } = await resolveSession(new Headers({ cookie: accepted.sessionCookie! }), { countsAsActivity: false });
    expect(staff).toMatchObject({ username: account.username, mustEnrolSecondFactor: false, session: { signInMethod: "totp" } });
    const signIns = await auditOf("auth.sign_in", account.userId);
    expect(signIns).toHaveLength(signInsBefore + 1);
    expect(signIns.at(-1)?.details).toMatchObject({ method: "totp" });
    expect(await failedCountOf(account.username)).toBe(0);
  });

  it("refuses a code the second time (better-auth alone would take it again inside its window)", async () => {
    const account = await enrolledAccount("tf.replay");
    const code = codeAt(account.secret, 1);
    const first = await signIn(account.username);
    expect((await post("/two-factor/verify-totp", { code }, first.twoFactorCookie)).status).toBe(200);

    const second = await signIn(account.username);
    const replayed = await post("/two-factor/verify-totp", { code }, second.twoFactorCookie);
    expect(replayed).toMatchObject({ status: 401, body: { code: "CODE_ALREADY_USED" } });
    expect(replayed.sessionCookie).toBeUndefined();
    const refusals = await auditOf("auth.second_factor_failed", account.userId);
    expect(refusals.at(-1)?.details).toMatchObject({ method: "totp", reason: "code_already_used" });

    // Without the used-code rows (what better-auth alone keeps: nothing), the same code passes.
    const db = await getDb();
    await db.delete(secondFactorUsedCodes).where(eq(secondFactorUsedCodes.userId, account.userId));
    const third = await signIn(account.username);
    expect((await post("/two-factor/verify-totp", { code }, third.twoFactorCookie)).status).toBe(200);
  });

  it("lets only one of two simultaneous requests with the same code through", async () => {
    const account = await enrolledAccount("tf.twins");
    const code = codeAt(account.secret, -1);
    const [one, two] = [await signIn(account.username), await signIn(account.username)];
    const answers = await Promise.all([
      post("/two-factor/verify-totp", { code }, one.twoFactorCookie),
      post("/two-factor/verify-totp", { code }, two.twoFactorCookie),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    expect(answers.filter((answer) => answer.sessionCookie)).toHaveLength(1);
  });

  it("gives a wrong code's claim back, audits it and counts it towards the lock-out", async () => {
    const account = await enrolledAccount("tf.wrong");
    const right = codeAt(account.secret, 1);
    const wrong = right === "000000" ? "111111" : "000000";
    const pending = await signIn(account.username);
    const refused = await post("/two-factor/verify-totp", { code: wrong }, pending.twoFactorCookie);
    expect(refused).toMatchObject({ status: 401, body: { code: "INVALID_CODE" } });
    expect(await auditOf("auth.second_factor_failed", account.userId)).toHaveLength(1);
    expect(await failedCountOf(account.username)).toBe(2);
    // The wrong code's claim went: it is refused as wrong again, not as used.
    expect(await post("/two-factor/verify-totp", { code: wrong }, pending.twoFactorCookie)).toMatchObject({ body: { code: "INVALID_CODE" } });
    expect(await failedCountOf(account.username)).toBe(3);
  });

  it("locks the username when the password is followed by wrong codes", async () => {
    const account = await enrolledAccount("tf.guess");
    const wrong = codeAt(account.secret, 1) === "000000" ? "111111" : "000000";
    const pending = await signIn(account.username);
    const answers = [];
    for (let attempt = 0; attempt < 4; attempt++) answers.push(await post("/two-factor/verify-totp", { code: wrong }, pending.twoFactorCookie));
    expect(answers.slice(0, 3).map((answer) => answer.body.code)).toEqual(Array(3).fill("INVALID_CODE"));
    expect(answers[3]?.body.code).toBe("ACCOUNT_LOCKED");
    const db = await getDb();
    const lockouts = await db.select().from(auditEvents).where(and(eq(auditEvents.action, "auth.locked_out"), eq(auditEvents.actorLabel, account.username)));
    expect(lockouts).toHaveLength(1);
    // Locked: neither the password nor a right code gets through now.
    expect(await signIn(account.username)).toMatchObject({ body: { code: "ACCOUNT_LOCKED" } });
  });

  it("accepts a backup code once, and refuses to remember the device", async () => {
    const account = await enrolledAccount("tf.backup");
    const backupCode = account.backupCodes[0]!;
    const first = await signIn(account.username);
    expect(await post("/two-factor/verify-totp", { code: codeAt(account.secret, 1), trustDevice: true }, first.twoFactorCookie)).toMatchObject({
      status: 400,
      body: { code: "TRUST_DEVICE_REFUSED" },
    });
    const accepted = await post("/two-factor/verify-backup-code", { code: backupCode }, first.twoFactorCookie);
    expect(accepted.status).toBe(200);
    const { staff } = await resolveSession(new Headers({ cookie: accepted.sessionCookie! }), { countsAsActivity: false });
    expect(staff?.session.signInMethod).toBe("backup_code");
    expect((await auditOf("auth.sign_in", account.userId)).at(-1)?.details).toMatchObject({ method: "backup_code" });

    const second = await signIn(account.username);
    expect(await post("/two-factor/verify-backup-code", { code: backupCode }, second.twoFactorCookie)).toMatchObject({ status: 401, body: { code: "CODE_ALREADY_USED" } });
    // Long after, when the used-code row is gone, better-auth refuses it itself: it was struck off.
    const db = await getDb();
    await db.delete(secondFactorUsedCodes).where(eq(secondFactorUsedCodes.userId, account.userId));
    const third = await signIn(account.username);
    expect(await post("/two-factor/verify-backup-code", { code: backupCode }, third.twoFactorCookie)).toMatchObject({ status: 401, body: { code: "INVALID_BACKUP_CODE" } });
    const fourth = await signIn(account.username);
    expect((await post("/two-factor/verify-backup-code", { code: account.backupCodes[1]! }, fourth.twoFactorCookie)).status).toBe(200);
  });
});
