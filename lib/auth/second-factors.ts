import "server-only";
import { count, eq } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { authUsers, passkeys } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Staff } from "./types";
import { mayChangeSecondFactors, type HeldSecondFactors } from "./two-factor/policy";

/** What an account holds now: an authenticator app (verified) and how many passkeys. */
export async function secondFactorsHeldBy(executor: DbExecutor, userId: string): Promise<HeldSecondFactors> {
  const [user] = await executor.select({ hasAuthenticator: authUsers.twoFactorEnabled }).from(authUsers).where(eq(authUsers.id, userId));
  const [keys] = await executor.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return { hasAuthenticator: user?.hasAuthenticator ?? false, passkeyCount: keys?.total ?? 0 };
}

/**
 * Refuses to enrol, replace or remove a second factor from a session that did not prove one the
 * account holds (lib/auth/two-factor/policy.ts `mayChangeSecondFactors`).
 */
export async function assertMayChangeSecondFactors(executor: DbExecutor, staff: Staff): Promise<void> {
  const held = await secondFactorsHeldBy(executor, staff.userId);
  if (mayChangeSecondFactors(staff.session.signInMethod, held)) return;
  throw new AppError("SECOND_FACTOR_NOT_PROVEN", `staff ${staff.userId} changing a second factor from a ${staff.session.signInMethod} session`);
}
