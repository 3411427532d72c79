import "server-only";
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { Database, DbExecutor } from "@/lib/db/types";
import { apiKeys, authUsers, branches, type ApiKey } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { generateApiKey, hashApiKey, hintOf, parseApiKey, type ApiKeyEnvironment } from "./key-format";
import type { ApiKeyListStatus } from "./key-status";
import type { ApiScope } from "./scopes";

/**
 * The keys' life (ADR 0044): proposed by one administrator and made by a second (a key is a grant
 * of customer data, ADR 0020), or made directly by an operator at the command line; rolled with an
 * overlap, two people again (a roll mints a working key: one administrator alone could hand
 * themselves the integration's access); revoked by one (it only removes access). Only the key's hash is written; the key itself is returned once, to the one
 * who made it. Every step is audited, and so is everything a key does, under the key's name.
 */

export type ApiKeyActor = { userId: string; username: string };

export type ApiKeyInput = {
  name: string;
  environment: ApiKeyEnvironment;
  scopes: ApiScope[];
  branchIds: string[];
  expiresAt: Date;
  rateLimitPerMinute?: number;
};

/** Who calls: what the routes know about the key of a request. */
export type ApiCaller = {
  keyId: string;
  name: string;
  serviceUserId: string;
  scopes: ApiScope[];
  branchIds: string[];
  environment: ApiKeyEnvironment;
  rateLimitPerMinute: number;
};

/** A key refused for any reason says the same: nothing tells a prober which keys exist. */
export const KEY_REFUSED_MESSAGE = "The API key is missing, malformed, expired or revoked.";

/** How long a rolled key keeps working beside its successor, unless the admin says otherwise. */
export const DEFAULT_ROLL_OVERLAP_MS = 24 * 60 * 60_000;
/** Touching `last_used_at` once a minute is enough for "last used", and spares a write per request. */
const LAST_USED_GRANULARITY_MS = 60_000;

/** Reads the key from `Authorization: Bearer …` and finds it; every refusal is UNAUTHENTICATED. */
export async function authenticateApiKey(db: Database, authorization: string | null, now: Date, options: { refuseTestKeys: boolean }): Promise<ApiCaller> {
  const match = /^Bearer ([^\s]+)$/i.exec(authorization?.trim() ?? "");
  const refuse = (why: string) => new AppError("UNAUTHENTICATED", `API key refused: ${why}`, { userMessage: KEY_REFUSED_MESSAGE });
  if (!match) throw refuse("no bearer key");
  const key = match[1]!;
  // Shape and checksum first: a typo or a look-alike never reaches the database.
  const parsed = parseApiKey(key);
  if (!parsed) throw refuse("malformed or checksum wrong");
  if (parsed.environment === "test" && options.refuseTestKeys) throw refuse("test key in production");
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, hashApiKey(key)));
  if (!row || row.status !== "active" || row.serviceUserId === null) throw refuse("unknown key");
  if (row.revokedAt !== null) throw refuse(`key ${row.id} revoked`);
  if (row.expiresAt.getTime() <= now.getTime()) throw refuse(`key ${row.id} expired`);
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id));
  }
  return {
    keyId: row.id,
    name: row.name,
    serviceUserId: row.serviceUserId,
    scopes: row.scopes as ApiScope[],
    branchIds: row.branchIds,
    environment: row.environment as ApiKeyEnvironment,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}

function checkInput(input: ApiKeyInput, now: Date): void {
  const name = input.name.trim();
  if (name.length < 2 || name.length > 80) throw new AppError("VALIDATION", "api key name length", { fieldErrors: { name: ["Name the integration (2 to 80 characters)."] } });
  if (input.scopes.length === 0) throw new AppError("VALIDATION", "api key without scope", { fieldErrors: { scopes: ["Choose at least one scope."] } });
  if (input.branchIds.length === 0) throw new AppError("VALIDATION", "api key without branch", { fieldErrors: { branchIds: ["Choose at least one branch."] } });
  if (input.expiresAt.getTime() <= now.getTime()) throw new AppError("VALIDATION", "api key expiry in the past", { fieldErrors: { expiresAt: ["Choose an expiry in the future."] } });
}

async function requireBranches(db: DbExecutor, branchIds: string[]): Promise<void> {
  const found = await db.select({ id: branches.id }).from(branches).where(inArray(branches.id, branchIds));
  if (found.length !== new Set(branchIds).size) throw new AppError("VALIDATION", "api key branch unknown", { fieldErrors: { branchIds: ["A branch chosen does not exist."] } });
}

/** The integration's own user row: no password, no staff profile, so it can never sign in. */
async function createServiceUser(tx: DbExecutor, name: string): Promise<string> {
  const id = randomUUID();
  await tx.insert(authUsers).values({ id, name: `API: ${name}`, email: `api-${id}@integrations.invalid` });
  return id;
}

function auditDetails(row: Pick<ApiKey, "name" | "environment" | "scopes" | "branchIds" | "expiresAt" | "keyHint">) {
  return { name: row.name, environment: row.environment, scopes: row.scopes, branchIds: row.branchIds, expiresAt: row.expiresAt.toISOString(), keyHint: row.keyHint };
}

/** One administrator proposes; nothing can be called with it until another approves. */
export async function proposeApiKey(db: Database, admin: ApiKeyActor, input: ApiKeyInput, requestId?: string, now = new Date()): Promise<ApiKey> {
  checkInput(input, now);
  return db.transaction(async (tx) => {
    await requireBranches(tx, input.branchIds);
    const [row] = await tx
      .insert(apiKeys)
      .values({
        name: input.name.trim(),
        environment: input.environment,
        scopes: [...new Set(input.scopes)],
        branchIds: [...new Set(input.branchIds)],
        expiresAt: input.expiresAt,
        rateLimitPerMinute: input.rateLimitPerMinute ?? 60,
        proposedByUserId: admin.userId,
        proposedByUsername: admin.username,
      })
      .returning();
    await recordAuditEvent(tx, { action: "api_key.requested", actor: admin, subject: { type: "api_key", id: row!.id }, details: auditDetails(row!), requestId });
    return row!;
  });
}

/**
 * A second administrator approves: the key is made now and returned once. One conditional UPDATE
 * (still pending, not the author's own) so two racing approvals make one key. A roll's proposal
 * (`rolledFromId`) makes the successor of a key that must still be active, unrevoked and unexpired
 * now — it may have expired or been revoked while the proposal waited — for the same integration,
 * scopes, branches and expiry; the old key keeps working for `rollOverlapMs`.
 */
export async function approveApiKey(
  db: Database,
  approver: ApiKeyActor,
  id: string,
  requestId?: string,
  now = new Date(),
  options: { rollOverlapMs?: number } = {},
): Promise<{ key: string; row: ApiKey }> {
  const key = generateApiKey((await findKey(db, id)).environment as ApiKeyEnvironment);
  return db.transaction(async (tx) => {
    const [pending] = await tx.select().from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.status, "pending")));
    if (!pending) throw new AppError("CONFLICT", `api key ${id} is not pending`, { userMessage: "This proposal is no longer waiting (decided or withdrawn): reload the page." });
    if (pending.proposedByUserId === approver.userId) {
      throw new AppError("FORBIDDEN", "approver proposed the key", { userMessage: "A second administrator must approve a key you proposed." });
    }
    let values: Partial<ApiKey>;
    let rolledFrom: ApiKey | null = null;
    if (pending.rolledFromId !== null) {
      const overlapEnds = new Date(now.getTime() + (options.rollOverlapMs ?? DEFAULT_ROLL_OVERLAP_MS));
      // Locked before it is judged: a revoke or another decision on the same key waits for this one.
      const [old] = await tx.select().from(apiKeys).where(eq(apiKeys.id, pending.rolledFromId)).for("update");
      if (!old || !isUsable(old, now)) {
        throw new AppError("CONFLICT", `api key ${pending.rolledFromId} is no longer active: roll ${id} refused`, {
          userMessage: "The key this roll replaces has expired or been revoked since: it is not rolled. Reject the proposal; a new key needs a new proposal.",
        });
      }
      const [shortened] = await tx
        .update(apiKeys)
        .set({ expiresAt: sql`least(${apiKeys.expiresAt}, ${overlapEnds.toISOString()}::timestamptz)` })
        .where(eq(apiKeys.id, old.id))
        .returning();
      rolledFrom = shortened!;
      // A roll changes the secret, not the grant: same integration and the same end.
      values = { serviceUserId: old.serviceUserId, expiresAt: old.expiresAt };
    } else {
      values = { serviceUserId: await createServiceUser(tx, pending.name) };
    }
    const [row] = await tx
      .update(apiKeys)
      .set({ ...values, status: "active", keyHash: hashApiKey(key), keyHint: hintOf(key), decidedByUserId: approver.userId, decidedByUsername: approver.username, decidedAt: now })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.status, "pending"), ne(apiKeys.proposedByUserId, approver.userId)))
      .returning();
    if (!row) throw new AppError("CONFLICT", `api key ${id} was decided meanwhile`);
    await recordAuditEvent(tx, {
      action: rolledFrom ? "api_key.roll" : "api_key.create",
      actor: approver,
      subject: { type: "api_key", id },
      details: {
        ...auditDetails(row),
        proposedBy: row.proposedByUsername,
        approvedBy: approver.username,
        ...(rolledFrom ? { rolledFrom: rolledFrom.id, oldKeyExpiresAt: rolledFrom.expiresAt.toISOString() } : {}),
      },
      requestId,
    });
    return { key, row };
  });
}

/** Reject (another administrator) or cancel (the author): the proposal ends, no key exists. */
export async function decideAgainstApiKey(db: Database, admin: ApiKeyActor, id: string, decision: "rejected" | "cancelled", requestId?: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const byAuthor = eq(apiKeys.proposedByUserId, admin.userId);
    const [row] = await tx
      .update(apiKeys)
      .set({ status: decision, decidedByUserId: admin.userId, decidedByUsername: admin.username, decidedAt: now })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.status, "pending"), decision === "cancelled" ? byAuthor : ne(apiKeys.proposedByUserId, admin.userId)))
      .returning();
    if (!row) throw new AppError("CONFLICT", `api key ${id} cannot be ${decision} by ${admin.username}`);
    await recordAuditEvent(tx, { action: `api_key.${decision}`, actor: admin, subject: { type: "api_key", id }, details: auditDetails(row), requestId });
  });
}

/** The operator's path (a shell on the server, as `staff:create`): made at once, audited as the command. */
export async function createApiKeyDirect(db: Database, input: ApiKeyInput, actorLabel: string, now = new Date()): Promise<{ key: string; row: ApiKey }> {
  checkInput(input, now);
  const key = generateApiKey(input.environment);
  return db.transaction(async (tx) => {
    await requireBranches(tx, input.branchIds);
    const serviceUserId = await createServiceUser(tx, input.name.trim());
    const [row] = await tx
      .insert(apiKeys)
      .values({
        name: input.name.trim(),
        environment: input.environment,
        status: "active",
        keyHash: hashApiKey(key),
        keyHint: hintOf(key),
        serviceUserId,
        scopes: [...new Set(input.scopes)],
        branchIds: [...new Set(input.branchIds)],
        expiresAt: input.expiresAt,
        rateLimitPerMinute: input.rateLimitPerMinute ?? 60,
        proposedByUserId: actorLabel,
        proposedByUsername: actorLabel,
        decidedByUsername: actorLabel,
        decidedAt: now,
      })
      .returning();
    await recordAuditEvent(tx, { action: "api_key.create", actor: null, actorLabel, subject: { type: "api_key", id: row!.id }, details: auditDetails(row!) });
    return { key, row: row! };
  });
}

function isUsable(row: ApiKey, now: Date): boolean {
  return row.status === "active" && row.revokedAt === null && row.expiresAt.getTime() > now.getTime();
}

/**
 * One administrator proposes a new key for the same integration; a second approves it
 * (`approveApiKey`) and is shown it once. Only an active, unrevoked, unexpired key is rolled, and
 * it has at most one successor, waiting or made: the key's row is locked while that is checked, so
 * a burst of proposals for one key leaves one.
 */
export async function proposeApiKeyRoll(db: Database, admin: ApiKeyActor, id: string, requestId?: string, now = new Date()): Promise<ApiKey> {
  await findKey(db, id);
  return db.transaction(async (tx) => {
    const [old] = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).for("update");
    if (!old || !isUsable(old, now)) {
      throw new AppError("CONFLICT", `api key ${id} is not active: not rolled`, { userMessage: "Only an active key is rolled: an expired or revoked key needs a new key, proposed as one." });
    }
    const [successor] = await tx
      .select({ id: apiKeys.id, status: apiKeys.status })
      .from(apiKeys)
      .where(and(eq(apiKeys.rolledFromId, id), inArray(apiKeys.status, ["pending", "active"])));
    if (successor) {
      throw new AppError("CONFLICT", `api key ${id} already has successor ${successor.id} (${successor.status})`, {
        userMessage: successor.status === "pending" ? "A roll of this key is already waiting for a second administrator." : "This key has been rolled already: roll its successor.",
      });
    }
    const [row] = await tx
      .insert(apiKeys)
      .values({
        name: old.name,
        environment: old.environment,
        scopes: old.scopes,
        branchIds: old.branchIds,
        expiresAt: old.expiresAt,
        rateLimitPerMinute: old.rateLimitPerMinute,
        rolledFromId: old.id,
        proposedByUserId: admin.userId,
        proposedByUsername: admin.username,
        proposedAt: now,
      })
      .returning();
    await recordAuditEvent(tx, { action: "api_key.roll_requested", actor: admin, subject: { type: "api_key", id: row!.id }, details: { ...auditDetails(row!), rolledFrom: old.id }, requestId });
    return row!;
  });
}

export async function revokeApiKey(db: Database, admin: ApiKeyActor, id: string, requestId?: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: now, revokedByUsername: admin.username })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.status, "active"), isNull(apiKeys.revokedAt)))
      .returning();
    if (!row) throw new AppError("CONFLICT", `api key ${id} is not active`);
    await recordAuditEvent(tx, { action: "api_key.revoke", actor: admin, subject: { type: "api_key", id }, details: auditDetails(row), requestId });
  });
}

async function findKey(db: DbExecutor, id: string): Promise<ApiKey> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new AppError("NOT_FOUND", "api key id is not a uuid");
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  if (!row) throw new AppError("NOT_FOUND", `api key ${id} not found`);
  return row;
}

export type ApiKeyListItem = {
  id: string;
  name: string;
  environment: string;
  status: ApiKeyListStatus;
  keyHint: string | null;
  scopes: string[];
  branches: string[];
  expiresAt: Date;
  lastUsedAt: Date | null;
  proposedByUserId: string;
  proposedByUsername: string;
  proposedAt: Date;
  decidedByUsername: string | null;
  rolledFromId: string | null;
};

/** Every key, newest first, for the admin page: never the hash. */
export async function listApiKeys(db: DbExecutor, now = new Date()): Promise<ApiKeyListItem[]> {
  const rows = await db.select().from(apiKeys).orderBy(desc(apiKeys.proposedAt)).limit(500);
  const branchRows = await db.select({ id: branches.id, code: branches.code }).from(branches);
  const codeOf = new Map(branchRows.map((branch) => [branch.id, branch.code]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    environment: row.environment,
    status:
      row.status !== "active" ? row.status : row.revokedAt !== null ? "revoked" : row.expiresAt.getTime() <= now.getTime() ? "expired" : "active",
    keyHint: row.keyHint,
    scopes: row.scopes,
    branches: row.branchIds.map((branchId) => codeOf.get(branchId) ?? branchId),
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    proposedByUserId: row.proposedByUserId,
    proposedByUsername: row.proposedByUsername,
    proposedAt: row.proposedAt,
    decidedByUsername: row.decidedByUsername,
    rolledFromId: row.rolledFromId,
  }));
}
