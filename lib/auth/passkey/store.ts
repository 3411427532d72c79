import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { authUsers, passkeys, staffProfiles } from "@/lib/db/schema";
import type { PasskeySummary } from "./dto";

/** The passkeys table, read and written with Drizzle: better-auth's adapter never sees it. */

export type StoredPasskey = typeof passkeys.$inferSelect;

export async function listPasskeysOf(executor: DbExecutor, userId: string): Promise<PasskeySummary[]> {
  const rows = await executor
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return rows.map((row) => ({
    id: row.id,
    name: row.name ?? "Passkey",
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Credential IDs and transports of a staff member's passkeys (the registration's exclude list). */
export async function credentialsOf(executor: DbExecutor, userId: string) {
  return executor.select({ credentialId: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId));
}

export async function countPasskeysOf(executor: DbExecutor, userId: string): Promise<number> {
  const [row] = await executor.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.total ?? 0;
}

/** A passkey by its credential ID, with the owner's username and branch for the audit trail. */
export async function findPasskeyByCredentialId(executor: DbExecutor, credentialId: string) {
  const [row] = await executor
    .select({ passkey: passkeys, username: authUsers.username, branchId: staffProfiles.branchId })
    .from(passkeys)
    .innerJoin(authUsers, eq(authUsers.id, passkeys.userId))
    .leftJoin(staffProfiles, eq(staffProfiles.userId, passkeys.userId))
    .where(eq(passkeys.credentialId, credentialId));
  return row;
}

export async function insertPasskey(
  executor: DbExecutor,
  passkey: Omit<StoredPasskey, "id" | "createdAt" | "lastUsedAt">,
): Promise<StoredPasskey | null> {
  const [row] = await executor
    .insert(passkeys)
    .values({ id: randomUUID(), ...passkey })
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning();
  return row ?? null;
}

/**
 * Moves the counter forward and stamps the use, only if nobody moved it meanwhile: of two
 * sign-ins racing with the same counter reading, one wins.
 */
export async function recordPasskeyUse(executor: DbExecutor, id: string, previousCounter: number, newCounter: number, now: Date): Promise<boolean> {
  const updated = await executor
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(and(eq(passkeys.id, id), eq(passkeys.counter, previousCounter)))
    .returning({ id: passkeys.id });
  return updated.length > 0;
}

/** Deletes one of the staff member's own passkeys; the removed row's name, or null if none was theirs. */
export async function deleteOwnPasskey(executor: DbExecutor, userId: string, id: string): Promise<{ name: string | null; credentialId: string } | null> {
  const [row] = await executor
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ name: passkeys.name, credentialId: passkeys.credentialId });
  return row ?? null;
}
