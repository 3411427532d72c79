import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { removeScratchProcessDatabase } from "@/test/kit/process-database";

/**
 * Maker-checker for grants of customer data (ADR 0020) through the use cases, on a fresh embedded
 * database with the demo seed (two administrators): a proposal changes nothing until a second
 * administrator approves it; its author cannot approve it; two approvers racing apply it once;
 * and no caller can skip the approval by calling the plain service.
 */

await vi.hoisted(async () => {
  const { useScratchProcessDatabase } = await import("@/test/kit/process-database");
  useScratchProcessDatabase("role-approvals");
});

const { closeDb, getDb } = await import("@/lib/db/client");
const { auditEvents, authUsers, staffProfiles, staffRoleApprovals } = await import("@/lib/db/schema");
const staffService = await import("./accounts");
const approvals = await import("./role-approvals");
const { seedDemoData } = await import("./seed");

type Admin = { userId: string; username: string };
let adminA: Admin;
let adminB: Admin;
let acc: string;
let kum: string;

async function adminNamed(username: string): Promise<Admin> {
  const member = await staffService.findStaffByUsername(await getDb(), username);
  if (!member) throw new Error(`seed made no ${username}`);
  return { userId: member.userId, username: member.username };
}

async function auditActions(subjectId: string) {
  const db = await getDb();
  const rows = await db.select({ action: auditEvents.action, actor: auditEvents.actorLabel }).from(auditEvents).where(eq(auditEvents.subjectId, subjectId)).orderBy(auditEvents.chainSeq);
  return rows;
}

beforeAll(async () => {
  await seedDemoData(await getDb(), { onlyIfEmpty: true });
  adminA = await adminNamed("admin");
  adminB = await adminNamed("admin.second");
  acc = (await staffService.findStaffByUsername(await getDb(), "teller.accra"))!.branch.id;
  kum = (await staffService.findStaffByUsername(await getDb(), "teller.kumasi"))!.branch.id;
}, 120_000);

afterAll(async () => {
  await closeDb();
  removeScratchProcessDatabase();
});

describe("creating an account with a customer-data role", () => {
  it("is only a proposal until a second administrator approves it, who gets the temporary password", async () => {
    const outcome = await approvals.proposeOrCreateStaff(await getDb(), adminA, { username: "New.Auditor", name: "Nana Auditor", role: "head_office_supervisor", branchId: acc }, "req-1");
    expect(outcome.status).toBe("pending");
    if (outcome.status !== "pending") return;
    const db = await getDb();
    expect(await db.select().from(authUsers).where(eq(authUsers.username, "new.auditor"))).toEqual([]);
    expect(await auditActions(outcome.approvalId)).toEqual([{ action: "staff.approval_requested", actor: "admin" }]);

    // The author cannot approve their own proposal, nor can the same username be proposed twice.
    await expect(approvals.approveRoleApproval(await getDb(), adminA, outcome.approvalId)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(approvals.proposeOrCreateStaff(await getDb(), adminB, { username: "new.auditor", name: "Twice", role: "teller", branchId: acc })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await approvals.listPendingApprovals(await getDb())).map((pending) => pending.username)).toContain("new.auditor");

    const { member, temporaryPassword } = await approvals.approveRoleApproval(await getDb(), adminB, outcome.approvalId, "req-2");
    expect(member).toMatchObject({ username: "new.auditor", role: "head_office_supervisor", mustChangePassword: true });
    expect(temporaryPassword).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(await auditActions(outcome.approvalId)).toEqual([
      { action: "staff.approval_requested", actor: "admin" },
      { action: "staff.approval_approved", actor: "admin.second" },
    ]);
    const [created] = await db.select().from(auditEvents).where(and(eq(auditEvents.action, "staff.create"), eq(auditEvents.subjectId, member.userId)));
    expect(created).toMatchObject({ actorLabel: "admin.second", details: { approvalId: outcome.approvalId, proposedBy: "admin", approvedBy: "admin.second" } });
    // Decided once: a second decision is refused.
    await expect(approvals.rejectRoleApproval(await getDb(), adminB, outcome.approvalId)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("cannot be done by one administrator through the plain service either", async () => {
    await expect(staffService.createStaffAccount(await getDb(), adminA, { username: "sneaky.hos", name: "Sneaky", role: "head_office_supervisor", branchId: acc })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const db = await getDb();
    expect(await db.select().from(authUsers).where(eq(authUsers.username, "sneaky.hos"))).toEqual([]);
  });

  it("from the server's command line (staff:create) stays direct, audited as the operator's", async () => {
    const { member } = await staffService.createStaffAccount(await getDb(), { system: "staff:create" }, { username: "cli.teller", name: "Cli Teller", role: "teller", branchId: acc, password: "chosen-by-the-operator" });
    expect((await auditActions(member.userId))[0]).toEqual({ action: "staff.create", actor: "staff:create" });
  });
});

describe("raising a role", () => {
  it("waits for approval, can be cancelled by its author or rejected by another, and changes nothing meanwhile", async () => {
    const teller = (await staffService.findStaffByUsername(await getDb(), "teller.kumasi"))!;
    const raise = { userId: teller.userId, name: teller.name, role: "supervisor" as const, branchId: kum };

    const first = await approvals.proposeOrUpdateStaff(await getDb(), adminA, raise);
    expect(first.status).toBe("pending");
    if (first.status !== "pending") return;
    expect((await staffService.findStaffMember(await getDb(), teller.userId)).role).toBe("teller");
    await expect(approvals.proposeOrUpdateStaff(await getDb(), adminB, raise)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(approvals.cancelRoleApproval(await getDb(), adminB, first.approvalId)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await approvals.cancelRoleApproval(await getDb(), adminA, first.approvalId);

    const second = await approvals.proposeOrUpdateStaff(await getDb(), adminA, raise);
    if (second.status !== "pending") throw new Error("expected a proposal");
    await approvals.rejectRoleApproval(await getDb(), adminB, second.approvalId);
    expect((await staffService.findStaffMember(await getDb(), teller.userId)).role).toBe("teller");

    const third = await approvals.proposeOrUpdateStaff(await getDb(), adminA, raise);
    if (third.status !== "pending") throw new Error("expected a proposal");
    // Two approvers at once (say, B in two tabs): applied exactly once.
    const results = await Promise.allSettled([approvals.approveRoleApproval(await getDb(), adminB, third.approvalId), approvals.approveRoleApproval(await getDb(), adminB, third.approvalId)]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect((await staffService.findStaffMember(await getDb(), teller.userId)).role).toBe("supervisor");
    const db = await getDb();
    const updates = await db.select().from(auditEvents).where(and(eq(auditEvents.action, "staff.update"), eq(auditEvents.subjectId, teller.userId)));
    expect(updates).toHaveLength(1);
    const statuses = await db.select({ status: staffRoleApprovals.status }).from(staffRoleApprovals).where(eq(staffRoleApprovals.subjectUserId, teller.userId)).orderBy(staffRoleApprovals.proposedAt);
    expect(statuses.map((row) => row.status)).toEqual(["cancelled", "rejected", "approved"]);
  });

  it("refuses a stale proposal: the account changed since it was made", async () => {
    const member = (await staffService.createStaffAccount(await getDb(), { system: "test" }, { username: "stale.one", name: "Stale One", role: "supervisor", branchId: kum, password: "whatever-long-enough" })).member;
    const proposal = await approvals.proposeOrUpdateStaff(await getDb(), adminA, { userId: member.userId, name: member.name, role: "head_office_supervisor", branchId: acc });
    if (proposal.status !== "pending") throw new Error("expected a proposal");
    // Meanwhile the account is moved (here by the server's operator, say after a transfer).
    await staffService.updateStaffAccount(await getDb(), { system: "test" }, { userId: member.userId, name: member.name, role: "teller", branchId: kum });
    await expect(approvals.approveRoleApproval(await getDb(), adminB, proposal.approvalId)).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await staffService.findStaffMember(await getDb(), member.userId)).role).toBe("teller");
  });

  it("never gives an administrator's account a customer-data role, nor lets an admin change their own", async () => {
    await expect(approvals.proposeOrUpdateStaff(await getDb(), adminA, { userId: adminB.userId, name: "Kofi Adjei", role: "head_office_supervisor", branchId: acc })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(approvals.proposeOrUpdateStaff(await getDb(), adminA, { userId: adminA.userId, name: "Akosua Darko", role: "head_office_supervisor", branchId: acc })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(staffService.updateStaffAccount(await getDb(), adminA, { userId: adminB.userId, name: "Kofi Adjei", role: "teller", branchId: acc })).rejects.toMatchObject({ code: "CONFLICT" });
    const db = await getDb();
    const [profile] = await db.select({ role: staffProfiles.role }).from(staffProfiles).where(eq(staffProfiles.userId, adminB.userId));
    expect(profile?.role).toBe("admin");
  });
});

describe("the count of approvals waiting", () => {
  it("counts for each administrator only what they may decide: not their own proposals, not about their own account", async () => {
    const before = { a: await approvals.countWaitingApprovals(await getDb(), adminA.userId), b: await approvals.countWaitingApprovals(await getDb(), adminB.userId) };
    const proposal = await approvals.proposeOrCreateStaff(await getDb(), adminA, { username: "waiting.teller", name: "Waiting Teller", role: "teller", branchId: kum });
    if (proposal.status !== "pending") throw new Error("expected a proposal");
    expect(await approvals.countWaitingApprovals(await getDb(), adminA.userId)).toEqual({ toDecide: before.a.toDecide, ownWaiting: before.a.ownWaiting + 1 });
    expect(await approvals.countWaitingApprovals(await getDb(), adminB.userId)).toEqual({ toDecide: before.b.toDecide + 1, ownWaiting: before.b.ownWaiting });
    // The pages prevent a proposal about an administrator's own account; the count follows the
    // rule `claim` applies anyway: its subject is never asked to decide it.
    const db = await getDb();
    const [aboutB] = await db
      .insert(staffRoleApprovals)
      .values({ kind: "role_change", subjectUserId: adminB.userId, username: adminB.username, name: "Kofi Adjei", role: "admin", branchId: kum, fromRole: "admin", fromBranchId: acc, proposedByUserId: adminA.userId, proposedByUsername: adminA.username })
      .returning({ id: staffRoleApprovals.id });
    expect((await approvals.countWaitingApprovals(await getDb(), adminB.userId)).toDecide).toBe(before.b.toDecide + 1);
    await expect(approvals.approveRoleApproval(await getDb(), adminB, aboutB!.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    // Decided: no longer waiting for anyone.
    await approvals.rejectRoleApproval(await getDb(), adminB, proposal.approvalId);
    await approvals.cancelRoleApproval(await getDb(), adminA, aboutB!.id);
    expect(await approvals.countWaitingApprovals(await getDb(), adminB.userId)).toEqual(before.b);
    expect(await approvals.countWaitingApprovals(await getDb(), adminA.userId)).toEqual(before.a);
  });
});
