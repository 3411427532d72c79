import "server-only";
import { asc, count, eq } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { branches, staffProfiles } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { actorLabelOf, actorOf, type Actor } from "./actor";

/**
 * Branches: the use cases behind the branches page and the seed. Each change and its audit event
 * commit in one transaction; authorisation happens before (the action wrapper).
 */

export async function findBranch(db: DbExecutor, branchId: string) {
  const [branch] = await db.select().from(branches).where(eq(branches.id, branchId));
  if (!branch) {
    throw new AppError("VALIDATION", `no branch ${branchId}`, { fieldErrors: { branchId: ["Choose a branch from the list."] } });
  }
  return branch;
}


export type BranchWithStaffCount = { id: string; code: string; name: string; staffCount: number; createdAt: Date };

export async function listBranches(db: DbExecutor): Promise<BranchWithStaffCount[]> {
  const rows = await db
    .select({ id: branches.id, code: branches.code, name: branches.name, createdAt: branches.createdAt, staffCount: count(staffProfiles.userId) })
    .from(branches)
    .leftJoin(staffProfiles, eq(staffProfiles.branchId, branches.id))
    .groupBy(branches.id)
    .orderBy(asc(branches.code));
  return rows;
}

export async function createBranch(db: DbExecutor, actor: Actor, input: { code: string; name: string }, requestId?: string) {
  try {
    return await db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: branches.id }).from(branches).where(eq(branches.code, input.code));
      if (taken) throw branchCodeTaken(input.code);
      const [branch] = await tx.insert(branches).values({ code: input.code, name: input.name }).returning();
      if (!branch) throw new AppError("INTERNAL", "branch insert returned nothing");
      await recordAuditEvent(tx, {
        action: "branch.create",
        actor: actorOf(actor),
        actorLabel: actorLabelOf(actor),
        subject: { type: "branch", id: branch.id },
        branchId: branch.id,
        details: { after: { code: branch.code, name: branch.name } },
        requestId,
      });
      return branch;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw branchCodeTaken(input.code);
    throw error;
  }
}

function branchCodeTaken(code: string): AppError {
  return new AppError("CONFLICT", `branch code ${code} exists`, {
    userMessage: "That branch code is taken.",
    fieldErrors: { code: ["A branch with this code exists already."] },
  });
}

export async function renameBranch(db: DbExecutor, actor: Actor, input: { branchId: string; name: string }, requestId?: string) {
  return db.transaction(async (tx) => {
    const before = await findBranch(tx, input.branchId);
    if (before.name === input.name) return before;
    const [branch] = await tx.update(branches).set({ name: input.name }).where(eq(branches.id, input.branchId)).returning();
    await recordAuditEvent(tx, {
      action: "branch.rename",
      actor: actorOf(actor),
      actorLabel: actorLabelOf(actor),
      subject: { type: "branch", id: input.branchId },
      branchId: input.branchId,
      details: { code: before.code, before: { name: before.name }, after: { name: input.name } },
      requestId,
    });
    return branch ?? before;
  });
}

/** Finds or creates a branch by code (the seed). */
export async function ensureBranch(db: DbExecutor, actor: Actor, input: { code: string; name: string }) {
  const [existing] = await db.select().from(branches).where(eq(branches.code, input.code));
  if (existing) return { branch: existing, isNew: false };
  return { branch: await createBranch(db, actor, input), isNew: true };
}
