import "server-only";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, asc, count, eq, isNull, ne } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import { clearFailedSignIns } from "@/lib/auth/lockout-store";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { revokeAllSessionsOf } from "@/lib/auth/session";
import { authAccounts, authUsers, branches, staffProfiles } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { generateTemporaryPassword } from "./passwords";
import type { CreateStaffInput, UpdateStaffInput } from "./schemas";
import { decideGrant, type GrantDecision } from "./separation-of-duties";
import { normalizeUsername, placeholderEmailFor } from "@/lib/auth/username";
import { actorLabelOf, actorOf, type Actor } from "./actor";
import { findBranch } from "./branches";

/**
 * Staff accounts: the use cases behind the admin pages, the seed and the
 * `staff:create` command. Each change and its audit event commit in one transaction.
 * Authorisation happens before (the action wrapper); these functions trust their caller.
 */

export type { Actor } from "./actor";

export type StaffMember = {
  userId: string;
  username: string;
  name: string;
  role: StaffRole;
  branch: { id: string; code: string; name: string };
  disabledAt: Date | null;
  isDemo: boolean;
  /** Holds a temporary password from an administrator, to be replaced at next sign-in. */
  mustChangePassword: boolean;
  createdAt: Date;
};

const staffColumns = {
  userId: authUsers.id,
  username: authUsers.username,
  name: authUsers.name,
  role: staffProfiles.role,
  branchId: branches.id,
  branchCode: branches.code,
  branchName: branches.name,
  disabledAt: staffProfiles.disabledAt,
  isDemo: staffProfiles.isDemo,
  mustChangePassword: staffProfiles.mustChangePassword,
  createdAt: staffProfiles.createdAt,
};

function toStaffMember(row: StaffRow): StaffMember {
  return {
    userId: row.userId,
    username: row.username ?? "",
    name: row.name,
    role: row.role,
    branch: { id: row.branchId, code: row.branchCode, name: row.branchName },
    disabledAt: row.disabledAt,
    isDemo: row.isDemo,
    mustChangePassword: row.mustChangePassword,
    createdAt: row.createdAt,
  };
}

type StaffRow = Awaited<ReturnType<typeof staffQuery>>[number];

function staffQuery(db: DbExecutor) {
  return db
    .select(staffColumns)
    .from(staffProfiles)
    .innerJoin(authUsers, eq(authUsers.id, staffProfiles.userId))
    .innerJoin(branches, eq(branches.id, staffProfiles.branchId));
}

export async function listStaff(db: DbExecutor): Promise<StaffMember[]> {
  const rows = await staffQuery(db).orderBy(asc(branches.code), asc(authUsers.name));
  return rows.map(toStaffMember);
}

export async function countStaff(db: DbExecutor): Promise<number> {
  const [row] = await db.select({ total: count() }).from(staffProfiles);
  return row?.total ?? 0;
}

export async function findStaffMember(db: DbExecutor, userId: string): Promise<StaffMember> {
  const [row] = await staffQuery(db).where(eq(staffProfiles.userId, userId));
  if (!row) throw new AppError("NOT_FOUND", `no staff member ${userId}`);
  return toStaffMember(row);
}

/**
 * Creates an account that can sign in at once with `password`. Without one, a temporary password
 * is generated (the caller shows it once) and must be replaced at the first sign-in (ADR 0012);
 * a given password (the demo seed, `staff:create`) was chosen by whoever will use it.
 * `isDemo` marks the published demo accounts of the local seed.
 */
export async function createStaffAccount(
  db: DbExecutor,
  actor: Actor,
  input: CreateStaffInput & { password?: string; isDemo?: boolean; isBreakGlass?: boolean },
  requestId?: string,
): Promise<{ member: StaffMember; temporaryPassword: string | null }> {
  const username = normalizeUsername(input.username);
  if ("userId" in actor) {
    assertDirectGrant(decideGrant({ actorUserId: actor.userId, subjectUserId: null, before: null, after: { role: input.role, branchId: input.branchId } }));
  }
  const isTemporary = input.password === undefined;
  const password = input.password ?? generateTemporaryPassword();
  const passwordHash = await hashPassword(password);
  try {
    const member = await db.transaction((tx) =>
      insertStaffAccount(tx, actor, { ...input, username, passwordHash, isTemporary }, requestId),
    );
    return { member, temporaryPassword: isTemporary ? password : null };
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameTaken(username);
    throw error;
  }
}

/**
 * The account's rows and its audit event, inside the caller's transaction: `createStaffAccount`
 * and the approval of a proposed account (lib/staff/role-approvals.ts) both come here.
 */
export async function insertStaffAccount(
  tx: DbExecutor,
  actor: Actor,
  input: CreateStaffInput & { passwordHash: string; isTemporary: boolean; isDemo?: boolean; isBreakGlass?: boolean },
  requestId?: string,
  extraDetails: Record<string, unknown> = {},
): Promise<StaffMember> {
  const { username, passwordHash, isTemporary } = input;
  const userId = randomUUID();
  const branch = await findBranch(tx, input.branchId);
  const [taken] = await tx.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.username, username));
  if (taken) throw usernameTaken(username);
  const now = new Date();
  await tx.insert(authUsers).values({
    id: userId,
    name: input.name,
    email: placeholderEmailFor(username),
    emailVerified: true,
    username,
    displayUsername: username,
    createdAt: now,
    updatedAt: now,
  });
  await tx.insert(authAccounts).values({
    id: randomUUID(),
    accountId: userId,
    providerId: "credential",
    userId,
    password: passwordHash,
    createdAt: now,
    updatedAt: now,
  });
  await tx
    .insert(staffProfiles)
    .values({ userId, role: input.role, branchId: branch.id, isDemo: input.isDemo ?? false, isBreakGlass: input.isBreakGlass ?? false, mustChangePassword: isTemporary });
  await recordAuditEvent(tx, {
    action: "staff.create",
    actor: actorOf(actor),
    actorLabel: actorLabelOf(actor),
    subject: { type: "staff", id: userId },
    branchId: branch.id,
    details: {
      username,
      after: { name: input.name, role: input.role, branch: branch.code },
      isDemo: input.isDemo ?? false,
      ...(input.isBreakGlass ? { isBreakGlass: true } : {}),
      mustChangePassword: isTemporary,
      ...extraDetails,
    },
    requestId,
  });
  return findStaffMember(tx, userId);
}

export function usernameTaken(username: string): AppError {
  return new AppError("CONFLICT", `username ${username} exists`, {
    userMessage: "That username is taken.",
    fieldErrors: { username: ["This username is taken. Choose another."] },
  });
}

/** Counts the enabled administrators other than `exceptUserId`. */
async function otherActiveAdmins(db: DbExecutor, exceptUserId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(staffProfiles)
    .where(and(eq(staffProfiles.role, "admin"), isNull(staffProfiles.disabledAt), ne(staffProfiles.userId, exceptUserId)));
  return row?.total ?? 0;
}

function refuse(internal: string, userMessage: string): AppError {
  return new AppError("CONFLICT", internal, { userMessage });
}

/** Changes name, role and branch; the audit event holds before and after. */
export async function updateStaffAccount(db: DbExecutor, actor: Actor, input: UpdateStaffInput, requestId?: string): Promise<StaffMember> {
  return db.transaction(async (tx) => {
    const before = await findStaffMember(tx, input.userId);
    const branch = await findBranch(tx, input.branchId);
    if (before.role === "admin" && input.role !== "admin") {
      if ("userId" in actor && actor.userId === input.userId) {
        throw refuse("admin demoting themselves", "You cannot change your own role. Ask another administrator.");
      }
      if ((await otherActiveAdmins(tx, input.userId)) === 0) {
        throw refuse("last admin demoted", "Veridesk needs at least one active administrator. Make someone else an administrator first.");
      }
    }
    if ("userId" in actor) {
      // Separation of duties (ADR 0020): a grant that needs a second administrator goes through
      // lib/staff/role-approvals.ts; here it is refused, so no caller can skip the approval.
      assertDirectGrant(decideGrant({
        actorUserId: actor.userId,
        subjectUserId: input.userId,
        before: { role: before.role, branchId: before.branch.id },
        after: { role: input.role, branchId: branch.id },
      }));
    }
    return applyStaffUpdate(tx, actor, input, before, branch, requestId);
  });
}

function assertDirectGrant(decision: GrantDecision): void {
  if (decision.kind === "refused") throw refuse(`separation of duties: ${decision.reason}`, decision.userMessage);
  if (decision.kind === "needs_second_admin") {
    throw new AppError("FORBIDDEN", `separation of duties: ${decision.reason} grant without a second administrator`, {
      userMessage: "This change needs a second administrator's approval.",
    });
  }
}

/** Writes a change of name, role and branch and its audit event, inside the caller's transaction. */
export async function applyStaffUpdate(
  tx: DbExecutor,
  actor: Actor,
  input: UpdateStaffInput,
  before: StaffMember,
  branch: { id: string; code: string },
  requestId?: string,
  extraDetails: Record<string, unknown> = {},
): Promise<StaffMember> {
  const isUnchanged = before.name === input.name && before.role === input.role && before.branch.id === branch.id;
  if (isUnchanged) return before;
  const now = new Date();
  await tx.update(authUsers).set({ name: input.name, updatedAt: now }).where(eq(authUsers.id, input.userId));
  await tx
    .update(staffProfiles)
    .set({ role: input.role, branchId: branch.id, updatedAt: now })
    .where(eq(staffProfiles.userId, input.userId));
  await recordAuditEvent(tx, {
    action: "staff.update",
    actor: actorOf(actor),
    actorLabel: actorLabelOf(actor),
    subject: { type: "staff", id: input.userId },
    branchId: branch.id,
    details: {
      username: before.username,
      before: { name: before.name, role: before.role, branch: before.branch.code },
      after: { name: input.name, role: input.role, branch: branch.code },
      ...extraDetails,
    },
    requestId,
  });
  return findStaffMember(tx, input.userId);
}

/** Disabling ends every session of the account at once; enabling lets it sign in again. */
export async function setStaffDisabled(db: DbExecutor, actor: Actor, userId: string, isDisabled: boolean, requestId?: string): Promise<StaffMember> {
  return db.transaction(async (tx) => {
    const before = await findStaffMember(tx, userId);
    if (isDisabled === (before.disabledAt !== null)) return before;
    if (isDisabled && "userId" in actor && actor.userId === userId) {
      throw refuse("admin disabling themselves", "You cannot disable your own account. Ask another administrator.");
    }
    if (isDisabled && before.role === "admin" && (await otherActiveAdmins(tx, userId)) === 0) {
      throw refuse("last admin disabled", "Veridesk needs at least one active administrator.");
    }
    const now = new Date();
    await tx
      .update(staffProfiles)
      .set({ disabledAt: isDisabled ? now : null, updatedAt: now })
      .where(eq(staffProfiles.userId, userId));
    const endedSessions = isDisabled ? await revokeAllSessionsOf(tx, userId) : 0;
    await recordAuditEvent(tx, {
      action: isDisabled ? "staff.disable" : "staff.enable",
      actor: actorOf(actor),
      actorLabel: actorLabelOf(actor),
      subject: { type: "staff", id: userId },
      branchId: before.branch.id,
      details: { username: before.username, ...(isDisabled ? { endedSessions } : {}) },
      requestId,
    });
    return findStaffMember(tx, userId);
  });
}

/**
 * Sets a new generated password, returned once for the administrator to hand over; the staff
 * member must replace it at their next sign-in (ADR 0012). The old sessions end and any lock-out
 * is lifted (the usual reason for a reset).
 */
export async function resetStaffPassword(
  db: DbExecutor,
  actor: Actor,
  userId: string,
  requestId?: string,
): Promise<{ member: StaffMember; temporaryPassword: string }> {
  const temporaryPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(temporaryPassword);
  const member = await db.transaction(async (tx) => {
    const member = await findStaffMember(tx, userId);
    const updated = await tx
      .update(authAccounts)
      .set({ password: passwordHash, updatedAt: new Date() })
      .where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, "credential")))
      .returning({ id: authAccounts.id });
    if (updated.length === 0) throw new AppError("NOT_FOUND", `staff member ${userId} has no password account`);
    await tx.update(staffProfiles).set({ mustChangePassword: true, updatedAt: new Date() }).where(eq(staffProfiles.userId, userId));
    const endedSessions = await revokeAllSessionsOf(tx, userId);
    await recordAuditEvent(tx, {
      action: "staff.password_reset",
      actor: actorOf(actor),
      actorLabel: actorLabelOf(actor),
      subject: { type: "staff", id: userId },
      branchId: member.branch.id,
      details: { username: member.username, endedSessions },
      requestId,
    });
    return { ...member, mustChangePassword: true };
  });
  await clearFailedSignIns(db, member.username);
  return { member, temporaryPassword };
}

export async function findStaffByUsername(db: DbExecutor, username: string): Promise<StaffMember | null> {
  const [row] = await staffQuery(db).where(eq(authUsers.username, normalizeUsername(username)));
  return row ? toStaffMember(row) : null;
}
