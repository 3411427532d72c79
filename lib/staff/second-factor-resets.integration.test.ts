import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * Removing a lost second factor through the use cases, on a fresh embedded database with the demo
 * seed (two administrators): a proposal removes nothing; its author, and the account's owner,
 * cannot apply it; a second administrator applies it once even when two race; the account's
 * authenticator, passkeys and sessions are gone after, and every step is in the audit trail.
 */

await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("second-factor-resets");
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { auditEvents, authSessions, authUsers, passkeys, secondFactorResets, twoFactors } = await import("@/lib/db/schema");
const { enrolDemoAuthenticator } = await import("@/lib/auth/two-factor/demo-authenticator");
const staffService = await import("./accounts");
const resets = await import("./second-factor-resets");
const { seedDemoData } = await import("./seed");

type Admin = { userId: string; username: string };
let adminA: Admin;
let adminB: Admin;

async function staffNamed(username: string): Promise<Admin> {
  const member = await staffService.findStaffByUsername(await getDb(), username);
  if (!member) throw new Error(`seed made no ${username}`);
  return { userId: member.userId, username: member.username };
}

/** An account with an authenticator app, a passkey and a session, as someone who then lost their phone. */
async function staffWithSecondFactors(username: string): Promise<Admin> {
  const db = await getDb();
  const member = await staffNamed(username);
  await enrolDemoAuthenticator(db, member.userId);
  await db.insert(passkeys).values({ id: `pk-${username}`, publicKey: "cHVibGlj", userId: member.userId, credentialId: `cred-${username}`, deviceType: "singleDevice" });
  await db.insert(authSessions).values({ id: `s-${username}`, token: `t-${username}`, userId: member.userId, expiresAt: new Date(Date.now() + 3_600_000) });
  return member;
}

async function auditOf(subjectId: string) {
  const db = await getDb();
  return db.select({ action: auditEvents.action, actor: auditEvents.actorLabel, details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.subjectId, subjectId)).orderBy(auditEvents.chainSeq);
}

beforeAll(async () => {
  await seedDemoData(await getDb(), { onlyIfEmpty: true });
  adminA = await staffNamed("admin");
  adminB = await staffNamed("admin.second");
}, 120_000);

afterAll(async () => {
  await closeDb();
  removeScratchProcessDatabase();
});

describe("removing a lost second factor", () => {
  it("is a proposal until a second administrator applies it; then the app, the passkeys and the sessions are gone", async () => {
    const teller = await staffWithSecondFactors("teller.accra");
    const db = await getDb();
    const resetId = await resets.proposeSecondFactorReset(db, adminA, teller.userId, "Phone stolen; identity checked at the branch with her staff card.", "req-1");

    // Nothing removed yet, and the overview says what waits.
    const before = await resets.secondFactorOverview(db, teller.userId);
    expect(before).toMatchObject({ hasAuthenticator: true, passkeyCount: 1, pendingReset: { id: resetId, proposedByUsername: "admin" } });
    // One open proposal per account.
    await expect(resets.proposeSecondFactorReset(db, adminB, teller.userId, "Twice over, for the race.")).rejects.toMatchObject({ code: "CONFLICT" });
    // Its author cannot apply it.
    await expect(resets.approveSecondFactorReset(db, adminA, resetId)).rejects.toMatchObject({ code: "FORBIDDEN" });

    expect(await resets.approveSecondFactorReset(db, adminB, resetId, "req-2")).toEqual({ username: "teller.accra" });
    expect(await db.select().from(twoFactors).where(eq(twoFactors.userId, teller.userId))).toEqual([]);
    expect(await db.select().from(passkeys).where(eq(passkeys.userId, teller.userId))).toEqual([]);
    expect(await db.select().from(authSessions).where(eq(authSessions.userId, teller.userId))).toEqual([]);
    const [user] = await db.select({ enabled: authUsers.twoFactorEnabled }).from(authUsers).where(eq(authUsers.id, teller.userId));
    expect(user?.enabled).toBe(false);
    expect(await resets.secondFactorOverview(db, teller.userId)).toMatchObject({ hasAuthenticator: false, passkeyCount: 0, pendingReset: null });

    // Decided once: a second decision is refused.
    await expect(resets.rejectSecondFactorReset(db, adminB, resetId)).rejects.toMatchObject({ code: "CONFLICT" });
    const trail = (await auditOf(teller.userId)).filter((event) => event.action.startsWith("staff.second_factor"));
    expect(trail.map(({ action, actor }) => [action, actor])).toEqual([
      ["staff.second_factor_reset_requested", "admin"],
      ["staff.second_factor_reset", "admin.second"],
    ]);
    expect(trail[1]!.details).toMatchObject({ resetId, proposedBy: "admin", removedAuthenticator: true, removedPasskeys: 1, endedSessions: 1 });
  });

  it("cannot be proposed for one's own account, nor applied by the account's owner", async () => {
    const db = await getDb();
    await expect(resets.proposeSecondFactorReset(db, adminA, adminA.userId, "My own phone, lost today.")).rejects.toMatchObject({ code: "FORBIDDEN" });
    // admin.second lost theirs; admin proposes; admin.second may not apply it to themselves.
    await enrolDemoAuthenticator(db, adminB.userId).catch(() => undefined);
    const resetId = await resets.proposeSecondFactorReset(db, adminA, adminB.userId, "Lost phone, checked by video call with HR.");
    await expect(resets.approveSecondFactorReset(db, adminB, resetId)).rejects.toMatchObject({ code: "FORBIDDEN", userMessage: expect.stringContaining("your own second factors") });
    // Only the author cancels it.
    await expect(resets.cancelSecondFactorReset(db, adminB, resetId)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await resets.cancelSecondFactorReset(db, adminA, resetId);
    const [row] = await db.select().from(secondFactorResets).where(eq(secondFactorResets.id, resetId));
    expect(row).toMatchObject({ status: "cancelled", decidedByUsername: "admin" });
    expect((await resets.secondFactorOverview(db, adminB.userId)).hasAuthenticator).toBe(true);
  });

  it("applies once when two administrators approve at the same moment", async () => {
    const db = await getDb();
    const supervisor = await staffWithSecondFactors("supervisor.kumasi");
    const adminC = await staffNamed("admin.second");
    const resetId = await resets.proposeSecondFactorReset(db, adminA, supervisor.userId, "Security key broken; seen in person by the branch manager.");
    // Two approvals from the same second administrator's two tabs: one applies, the other is told.
    const outcomes = await Promise.allSettled([resets.approveSecondFactorReset(db, adminC, resetId), resets.approveSecondFactorReset(db, adminC, resetId)]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === "rejected")).toMatchObject({ reason: { code: "CONFLICT" } });
    const applied = (await auditOf(supervisor.userId)).filter((event) => event.action === "staff.second_factor_reset");
    expect(applied).toHaveLength(1);
  });

  it("refuses an account with nothing to remove", async () => {
    const db = await getDb();
    const teller = await staffNamed("teller.kumasi");
    await expect(resets.proposeSecondFactorReset(db, adminA, teller.userId, "Nothing to remove here, surely.")).rejects.toMatchObject({ code: "CONFLICT" });
  });
});
