import { randomUUID } from "node:crypto";
import { authUsers, branches, staffProfiles, tokenRequests } from "@/lib/db/schema";
import type { DbExecutor } from "@/lib/db/types";
import type { StaffRole } from "@/lib/domain/staff-roles";

/**
 * Rows that integration tests insert by hand, with the fewest fields the schema asks for. Each
 * builder takes overrides for the fields a test cares about and returns the inserted row.
 */

export { fingerprintSubmission, newGhanaCardNumber, remoteSubmission } from "./submissions";
export { seedIssuedTokens as issuedTokens } from "./issued-tokens";
export { liveTokenSummary as aLiveTokenSummary } from "./live-token-summary";

let sequence = 0;
/** Short and unique within a run (branch codes are short, usernames must not repeat). */
function nextSuffix(): string {
  sequence += 1;
  return `${sequence.toString(36)}${randomUUID().slice(0, 4)}`.toUpperCase();
}

export async function aBranch(db: DbExecutor, overrides: Partial<typeof branches.$inferInsert> = {}) {
  const code = overrides.code ?? `B${nextSuffix()}`;
  const [branch] = await db
    .insert(branches)
    .values({ code, name: `Branch ${code}`, ...overrides })
    .returning();
  return branch!;
}

/** An auth user and its staff profile (no password: sign-in tests go through better-auth instead). */
export async function aStaffMember(db: DbExecutor, options: { role: StaffRole; branchId: string; username?: string; displayName?: string; userId?: string }) {
  const userId = options.userId ?? randomUUID();
  const username = options.username ?? `staff.${nextSuffix().toLowerCase()}`;
  await db.insert(authUsers).values({ id: userId, name: options.displayName ?? username, email: `${username}@staff.invalid`, username, displayUsername: username });
  const [profile] = await db.insert(staffProfiles).values({ userId, role: options.role, branchId: options.branchId }).returning();
  return { ...profile!, username };
}

/** A remote token request with no customer details (add them through overrides when a test reads them). */
export async function aTokenRequest(db: DbExecutor, options: { branchId: string; issuedByUserId: string } & Partial<typeof tokenRequests.$inferInsert>) {
  const [row] = await db
    .insert(tokenRequests)
    .values({
      id: randomUUID(),
      idempotencyKey: randomUUID(),
      requestFingerprint: "fp",
      kind: "remote",
      idType: "GHANA_CARD",
      ...options,
    } as typeof tokenRequests.$inferInsert)
    .returning();
  return row!;
}
