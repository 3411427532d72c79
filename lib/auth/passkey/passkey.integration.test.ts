import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * Passkey sign-in through better-auth's real HTTP handler, with assertions made by hand: an ES256
 * key from node:crypto, authenticator data with the flags byte we choose, and a signature over it.
 * What a browser's authenticator would never send (no user verification, a counter going back,
 * another origin) is sent here.
 */

await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("passkey-flow");
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { auditEvents, authSessions, passkeys, staffProfiles } = await import("@/lib/db/schema");
const { getAuth } = await import("../server");
const { resolveSession } = await import("../session");
const staffService = await import("@/lib/staff/accounts");
const staffBranches = await import("@/lib/staff/branches");
const { appUrl } = await import("@/lib/env");
const { replaceTemporaryPassword } = await import("@/lib/staff/password-change");
const { startEnrolment } = await import("../two-factor/enrolment");

const ORIGIN = appUrl();
const RP_ID = new URL(ORIGIN).hostname;
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;

type Authenticator = { credentialId: string; privateKey: KeyObject; userId: string };

/** A COSE EC2 P-256 key (CBOR map {1: 2, 3: -7, -1: 1, -2: x, -3: y}), as an authenticator reports it. */
function coseKeyOf(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x!, "base64url");
  const y = Buffer.from(jwk.y!, "base64url");
  return Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]);
}

async function post(path: string, body: unknown, cookie?: string) {
  const auth = await getAuth();
  const response = await auth.handler(
    new Request(`${ORIGIN}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    }),
  );
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  const cookies = response.headers.getSetCookie().map((line) => line.split(";")[0]!);
  return { status: response.status, body: json, cookies };
}

async function registeredAuthenticator(username: string): Promise<Authenticator> {
  const { member } = await staffService.createStaffAccount(
    await getDb(),
    { system: "test" },
    { username, name: `Test ${username}`, role: "teller", branchId, password: "correct-horse-battery" },
  );
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const credentialId = Buffer.from(`${username}-credential`).toString("base64url");
  await (await getDb()).insert(passkeys).values({
    id: crypto.randomUUID(),
    name: "Test key",
    publicKey: coseKeyOf(publicKey).toString("base64url"),
    userId: member.userId,
    credentialId,
    counter: 0,
    deviceType: "singleDevice",
    backedUp: false,
    transports: "internal",
  });
  return { credentialId, privateKey, userId: member.userId };
}

/** Asks for a challenge and answers it as the authenticator would (or would not). */
async function signInWith(authenticator: Authenticator, options: { flags: number; counter: number; origin?: string }) {
  const challenge = await post("/passkey/generate-authentication-options", {});
  expect(challenge.status).toBe(200);
  const challengeCookie = challenge.cookies.find((cookie) => cookie.includes("passkey_challenge"));
  expect(challengeCookie).toBeDefined();
  const authenticatorData = Buffer.alloc(37);
  createHash("sha256").update(RP_ID).digest().copy(authenticatorData, 0);
  authenticatorData[32] = options.flags;
  authenticatorData.writeUInt32BE(options.counter, 33);
  const clientDataJSON = Buffer.from(
    JSON.stringify({ type: "webauthn.get", challenge: challenge.body.challenge, origin: options.origin ?? ORIGIN, crossOrigin: false }),
  );
  const signature = sign("sha256", Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]), authenticator.privateKey);
  return post(
    "/passkey/verify-authentication",
    {
      response: {
        id: authenticator.credentialId,
        rawId: authenticator.credentialId,
        type: "public-key",
        response: {
          clientDataJSON: clientDataJSON.toString("base64url"),
          authenticatorData: authenticatorData.toString("base64url"),
          signature: signature.toString("base64url"),
          userHandle: Buffer.from(authenticator.userId).toString("base64url"),
        },
        clientExtensionResults: {},
      },
    },
    challengeCookie,
  );
}

async function failuresOf(username: string) {
  const rows = await (await getDb())
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "auth.sign_in_failed"), eq(auditEvents.actorLabel, username)));
  return rows.map((row) => (row.details as { reason?: string }).reason);
}

let branchId: string;

beforeAll(async () => {
  const branch = await staffBranches.createBranch(await getDb(), { system: "test" }, { code: "ACC", name: "Accra – Head Office" });
  branchId = branch.id;
}, 120_000);

afterAll(async () => {
  await closeDb();
  removeScratchProcessDatabase();
});

describe("passkey sign-in", () => {
  it("refuses an assertion without user verification, and audits why", async () => {
    const authenticator = await registeredAuthenticator("pk.nouv");
    const result = await signInWith(authenticator, { flags: FLAG_UP, counter: 1 });
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ code: "PASSKEY_USER_NOT_VERIFIED" });
    expect(result.cookies.some((cookie) => cookie.startsWith("veridesk.session_token=") && cookie.length > "veridesk.session_token=".length)).toBe(false);
    expect(await failuresOf("pk.nouv")).toEqual(["user_not_verified"]);
  });

  it("signs in with a verified assertion: a passkey session, audited as such, the counter moved", async () => {
    const authenticator = await registeredAuthenticator("pk.good");
    const result = await signInWith(authenticator, { flags: FLAG_UP | FLAG_UV, counter: 5 });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const sessionCookie = result.cookies.find((cookie) => cookie.startsWith("veridesk.session_token="));
    expect(sessionCookie).toBeDefined();
    const { staff } = await resolveSession(new Headers({ cookie: sessionCookie! }), { countsAsActivity: false });
    expect(staff?.username).toBe("pk.good");
    expect(staff?.session.signInMethod).toBe("passkey");
    const [signIn] = await (await getDb()).select().from(auditEvents).where(and(eq(auditEvents.action, "auth.sign_in"), eq(auditEvents.actorUserId, authenticator.userId)));
    expect(signIn?.details).toMatchObject({ method: "passkey" });
    const [row] = await (await getDb()).select().from(passkeys).where(eq(passkeys.credentialId, authenticator.credentialId));
    expect(row?.counter).toBe(5);
    expect(row?.lastUsedAt).not.toBeNull();

    // The same counter again: a copy of the authenticator.
    const replay = await signInWith(authenticator, { flags: FLAG_UP | FLAG_UV, counter: 5 });
    expect(replay.status).toBe(403);
    expect(replay.body).toMatchObject({ code: "PASSKEY_COUNTER_REGRESSED" });
    expect(await failuresOf("pk.good")).toEqual(["counter_regressed"]);
  });

  it("refuses an assertion made for another origin", async () => {
    const authenticator = await registeredAuthenticator("pk.origin");
    const result = await signInWith(authenticator, { flags: FLAG_UP | FLAG_UV, counter: 1, origin: "https://veridesk.example.evil" });
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ code: "PASSKEY_INVALID" });
    expect(await failuresOf("pk.origin")).toEqual(["invalid_assertion"]);
  });

  it("refuses a challenge used twice, and an answer with no challenge cookie", async () => {
    const authenticator = await registeredAuthenticator("pk.once");
    const noCookie = await post("/passkey/verify-authentication", {
      response: { id: authenticator.credentialId, rawId: authenticator.credentialId, type: "public-key", response: { clientDataJSON: "", authenticatorData: "", signature: "" } },
    });
    expect(noCookie.status).toBe(401);
    expect(noCookie.body).toMatchObject({ code: "PASSKEY_CHALLENGE_EXPIRED" });
  });

  it("refuses the passkey of a disabled account with the account's words", async () => {
    const authenticator = await registeredAuthenticator("pk.disabled");
    await (await getDb()).update(staffProfiles).set({ disabledAt: new Date() }).where(eq(staffProfiles.userId, authenticator.userId));
    const result = await signInWith(authenticator, { flags: FLAG_UP | FLAG_UV, counter: 1 });
    expect(result.status).toBe(403);
    expect(result.body).toMatchObject({ code: "ACCOUNT_DISABLED", message: "This account is disabled. Ask your administrator." });
    expect(await failuresOf("pk.disabled")).toEqual(["disabled"]);
  });

  it("refuses an unknown credential", async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const result = await signInWith({ credentialId: "bm9ib2R5", privateKey, userId: "nobody" }, { flags: FLAG_UP | FLAG_UV, counter: 1 });
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ code: "PASSKEY_UNKNOWN" });
  });
});

async function passwordSession(username: string): Promise<string> {
  const result = await post("/sign-in/username", { username, password: "correct-horse-battery" });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.cookies.find((cookie) => cookie.startsWith("veridesk.session_token="))!;
}

async function listAs(cookie: string) {
  const auth = await getAuth();
  const response = await auth.handler(new Request(`${ORIGIN}/api/auth/passkey/list`, { headers: { cookie } }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { passkeys: { id: string; name: string }[] }).passkeys;
}

async function passkeySession(authenticator: Authenticator, counter = 1): Promise<string> {
  const result = await signInWith(authenticator, { flags: FLAG_UP | FLAG_UV, counter });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.cookies.find((cookie) => cookie.startsWith("veridesk.session_token="))!;
}

const sessionsOf = async (userId: string) => (await getDb()).select().from(authSessions).where(eq(authSessions.userId, userId));

describe("a second factor before any session (ADR 0048)", () => {
  it("gives an account whose only factor is a passkey no session from its right password", async () => {
    const authenticator = await registeredAuthenticator("pk.onlykey");
    const right = await post("/sign-in/username", { username: "pk.onlykey", password: "correct-horse-battery" });
    expect(right.status).toBe(403);
    expect(right.body).toMatchObject({ code: "PASSKEY_REQUIRED" });
    expect(right.cookies.some((cookie) => cookie.startsWith("veridesk.session_token=") && cookie.length > "veridesk.session_token=".length)).toBe(false);
    expect(await sessionsOf(authenticator.userId)).toEqual([]);
    const wrong = await post("/sign-in/username", { username: "pk.onlykey", password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(await failuresOf("pk.onlykey")).toEqual(["passkey_required", "invalid_credentials"]);
    // The passkey itself still signs in.
    await passkeySession(authenticator);
    expect((await sessionsOf(authenticator.userId)).map((session) => session.authMethod)).toEqual(["passkey"]);
  });

  it("gives one administrator's password reset of a passkey-only account no way in, and the owner's passkey session survives choosing the new password", async () => {
    const db = await getDb();
    const authenticator = await registeredAuthenticator("pk.victim");
    const { temporaryPassword } = await staffService.resetStaffPassword(db, { system: "test" }, authenticator.userId);
    const taken = await post("/sign-in/username", { username: "pk.victim", password: temporaryPassword });
    expect(taken.status).toBe(403);
    expect(taken.body).toMatchObject({ code: "PASSKEY_REQUIRED" });
    expect(await sessionsOf(authenticator.userId)).toEqual([]);

    // The owner signs in with the passkey and replaces the temporary password: the fresh session
    // better-auth opens for it keeps the passkey as its proof.
    const cookie = await passkeySession(authenticator);
    const headers = new Headers({ cookie, origin: ORIGIN });
    const { staff } = await resolveSession(headers, { countsAsActivity: false });
    expect(staff).toMatchObject({ mustChangePassword: true, session: { signInMethod: "passkey" } });
    await replaceTemporaryPassword(db, staff!, { currentPassword: temporaryPassword, newPassword: "a phrase of my own", confirmPassword: "a phrase of my own" }, headers);
    expect((await sessionsOf(authenticator.userId)).map((session) => session.authMethod)).toEqual(["passkey"]);
  });

  it("lets a password session add, replace or remove no factor of an account that holds one", async () => {
    const db = await getDb();
    const { member } = await staffService.createStaffAccount(db, { system: "test" }, { username: "pk.oldsession", name: "Old session", role: "admin", branchId, password: "correct-horse-battery" });
    // Signed in before the account had a factor (the enrolment gate's session), then one is added.
    const cookie = await passwordSession("pk.oldsession");
    const options = await post("/passkey/generate-registration-options", {}, cookie);
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const [held] = await db
      .insert(passkeys)
      .values({ id: crypto.randomUUID(), name: "First key", publicKey: coseKeyOf(publicKey).toString("base64url"), userId: member.userId, credentialId: "b2xkLXNlc3Npb24", counter: 0, deviceType: "singleDevice", backedUp: false, transports: "internal" })
      .returning();

    for (const [path, body] of [["/passkey/generate-registration-options", {}], ["/passkey/verify-registration", { name: "Second", response: {} }], ["/passkey/remove", { id: held!.id }]] as const) {
      const refused = await post(path, body, cookie);
      expect(refused.status, path).toBe(403);
      expect(refused.body, path).toEqual({ error: expect.objectContaining({ code: "SECOND_FACTOR_NOT_PROVEN" }) });
    }
    expect(await (await getDb()).select().from(passkeys).where(eq(passkeys.userId, member.userId))).toHaveLength(1);
    const headers = new Headers({ cookie, origin: ORIGIN });
    const { staff } = await resolveSession(headers, { countsAsActivity: false });
    await expect(startEnrolment(db, staff!, "correct-horse-battery", headers)).rejects.toMatchObject({ code: "SECOND_FACTOR_NOT_PROVEN" });
  });
});

describe("a staff member's own passkeys", () => {
  it("lists only one's own, and removes only one's own", async () => {
    const owner = await registeredAuthenticator("pk.owner");
    const other = await registeredAuthenticator("pk.other");
    const ownerCookie = await passkeySession(owner);
    const otherCookie = await passkeySession(other);
    const [ownPasskey] = await listAs(ownerCookie);
    expect(await listAs(ownerCookie)).toHaveLength(1);
    expect((await listAs(otherCookie)).map((passkey) => passkey.id)).not.toContain(ownPasskey!.id);

    const stranger = await post("/passkey/remove", { id: ownPasskey!.id }, otherCookie);
    expect(stranger.status).toBe(404);
    expect(await listAs(ownerCookie)).toHaveLength(1);

    const removed = await post("/passkey/remove", { id: ownPasskey!.id }, ownerCookie);
    expect(removed.status).toBe(200);
    expect(await listAs(ownerCookie)).toEqual([]);
    const [audit] = await (await getDb()).select().from(auditEvents).where(and(eq(auditEvents.action, "auth.passkey_removed"), eq(auditEvents.actorUserId, owner.userId)));
    expect(audit?.subjectId).toBe(ownPasskey!.id);
  });


  it("answers signed-out callers 401 UNAUTHENTICATED in the app's shape", async () => {
    for (const path of ["/passkey/generate-registration-options", "/passkey/verify-registration", "/passkey/remove"]) {
      const result = await post(path, {});
      expect(result.status, path).toBe(401);
      expect(result.body, path).toEqual({ error: expect.objectContaining({ code: "UNAUTHENTICATED" }) });
      // A forged cookie and no Origin header: still "sign in", not better-auth's origin refusal.
      const auth = await getAuth();
      const forged = await auth.handler(new Request(`${ORIGIN}/api/auth${path}`, { method: "POST", headers: { cookie: "veridesk.session_token=forged.d2hhdGV2ZXI" } }));
      expect(forged.status, path).toBe(401);
      expect(await forged.json(), path).toEqual({ error: expect.objectContaining({ code: "UNAUTHENTICATED" }) });
    }
  });
});
