import "server-only";
import { asc, eq } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import { verificationPurposes, type VerificationPurpose } from "@/lib/db/schema";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors";
import type { IdType } from "@/lib/domain/id-types";
import { checkPurposePolicy, isPurposeOfferedFor, type PurposePolicy, type TokenKind } from "./purpose-policy";
import type { PurposePolicyInput } from "./purpose-schemas";

/**
 * The bank's verification purposes: the admin page's use cases and the check the
 * token issuing runs before it writes or sends anything. Each change and its audit event commit
 * in one transaction; authorisation happens before (the action wrapper).
 */

type Admin = { userId: string; username: string };

function toPolicy(row: VerificationPurpose): PurposePolicy {
  return {
    id: row.id,
    name: row.name,
    allowsFingerprint: row.allowsFingerprint,
    allowsRemote: row.allowsRemote,
    remoteIdTypes: row.remoteIdTypes,
    isActive: row.isActive,
  };
}

export async function listPurposes(db: DbExecutor): Promise<PurposePolicy[]> {
  const rows = await db.select().from(verificationPurposes).orderBy(asc(verificationPurposes.name));
  return rows.map(toPolicy);
}

/** What a form of this kind offers: active purposes whose policy allows the kind. */
export async function listPurposesFor(db: DbExecutor, kind: TokenKind): Promise<PurposePolicy[]> {
  return (await listPurposes(db)).filter((policy) => isPurposeOfferedFor(policy, kind));
}

/**
 * Refuses a token the bank's policy does not allow, as a field error naming the policy. Runs
 * first when a token is issued — before its row is written and long before the service is
 * called — so a crafted action call is refused exactly like the form would be.
 */
export async function requireAllowedPurpose(db: DbExecutor, purposeName: string, kind: TokenKind, idType: IdType): Promise<PurposePolicy> {
  const [row] = await db.select().from(verificationPurposes).where(eq(verificationPurposes.name, purposeName));
  const policy = row ? toPolicy(row) : undefined;
  const verdict = checkPurposePolicy(policy, kind, idType);
  if (!verdict.ok || !policy) {
    const message = verdict.ok ? "" : verdict.message;
    throw new AppError("VALIDATION", `purpose policy refused ${kind}/${idType} for purpose "${purposeName.slice(0, 120)}"`, {
      userMessage: message,
      fieldErrors: { [verdict.ok ? "purpose" : verdict.field]: [message] },
    });
  }
  return policy;
}

export async function createPurpose(db: DbExecutor, admin: Admin, input: PurposePolicyInput, requestId?: string): Promise<PurposePolicy> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(verificationPurposes).values(normalised(input)).returning();
      if (!row) throw new AppError("INTERNAL", "purpose insert returned nothing");
      await recordAuditEvent(tx, { action: "purpose.create", actor: admin, subject: { type: "purpose", id: row.id }, details: { after: auditView(row) }, requestId });
      return toPolicy(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

export async function updatePurpose(
  db: DbExecutor,
  admin: Admin,
  input: PurposePolicyInput & { purposeId: string },
  requestId?: string,
): Promise<PurposePolicy> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select().from(verificationPurposes).where(eq(verificationPurposes.id, input.purposeId)).for("update");
      if (!before) throw new AppError("NOT_FOUND", `purpose ${input.purposeId} not found`);
      const [after] = await tx
        .update(verificationPurposes)
        .set({ ...normalised(input), updatedAt: new Date() })
        .where(eq(verificationPurposes.id, input.purposeId))
        .returning();
      if (!after) throw new AppError("NOT_FOUND", `purpose ${input.purposeId} vanished`);
      await recordAuditEvent(tx, {
        action: "purpose.update",
        actor: admin,
        subject: { type: "purpose", id: after.id },
        details: { before: auditView(before), after: auditView(after) },
        requestId,
      });
      return toPolicy(after);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

/** Remote ID types are kept only while remote tokens are allowed, so the row says what applies. */
function normalised(input: PurposePolicyInput) {
  return {
    name: input.name,
    allowsFingerprint: input.allowsFingerprint,
    allowsRemote: input.allowsRemote,
    remoteIdTypes: input.allowsRemote ? [...new Set(input.remoteIdTypes)] : [],
    isActive: input.isActive,
  };
}

function auditView(row: VerificationPurpose) {
  return {
    name: row.name,
    allowsFingerprint: row.allowsFingerprint,
    allowsRemote: row.allowsRemote,
    remoteIdTypes: row.remoteIdTypes,
    isActive: row.isActive,
  };
}

function nameTaken(name: string): AppError {
  return new AppError("CONFLICT", `purpose ${name} exists`, {
    userMessage: "A purpose with this name exists already.",
    fieldErrors: { name: ["A purpose with this name exists already."] },
  });
}
